# The docker lab's base where a registry is reachable (GitHub): an image with Node 20 plus the routers,
# peers and network tools the lab's containers run. Where none is reachable lblab makes the same base by
# debootstrap with these packages (lab/images/lab-image.ts lists them and passes them as PACKAGES).
ARG BASE=node:20-bookworm-slim
FROM ${BASE}
ARG PACKAGES
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${PACKAGES} \
 && rm -rf /var/lib/apt/lists/*
