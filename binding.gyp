# The native addons, built by the root package's "install" script during `npm ci`: AF_PACKET
# (core/runtime/af-packet-port.ts), the TCP socket options for BGP (core/runtime/tcp/) and the UDP
# sockets with a TTL filter for BFD (core/runtime/bfd/). All use Linux-only interfaces: elsewhere the
# targets build nothing, so `npm ci` still works for emulated-only development, and AfPacketPort.open /
# connectTcp / listenTcp / UdpBfdNetwork.open say why they cannot work.
{
  "targets": [
    {
      "target_name": "af_packet",
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wall", "-Wextra"],
      "conditions": [
        ["OS=='linux'", { "sources": ["core/runtime/native/af_packet.c"] }, { "type": "none" }]
      ]
    },
    {
      "target_name": "tcp_options",
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wall", "-Wextra"],
      "conditions": [
        ["OS=='linux'", { "sources": ["core/runtime/native/tcp_options.c"] }, { "type": "none" }]
      ]
    },
    {
      "target_name": "udp_options",
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wall", "-Wextra"],
      "conditions": [
        ["OS=='linux'", { "sources": ["core/runtime/native/udp_options.c"] }, { "type": "none" }]
      ]
    }
  ]
}
