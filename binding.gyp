# The AF_PACKET addon (core/runtime/af-packet-port.ts), built by the root package's "install" script
# during `npm ci`. AF_PACKET exists only on Linux: elsewhere the target builds nothing, so `npm ci` still
# works for emulated-only development and AfPacketPort.open says why it cannot open a port.
{
  "targets": [
    {
      "target_name": "af_packet",
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wall", "-Wextra"],
      "conditions": [
        ["OS=='linux'", { "sources": ["core/runtime/native/af_packet.c"] }, { "type": "none" }]
      ]
    }
  ]
}
