/*
 * TCP sockets with the options a BGP speaker needs and Node's `net` cannot set: TCP-MD5 signatures
 * (RFC 2385), the TTL / hop limit of outgoing packets, and the minimum TTL of incoming ones (GTSM,
 * RFC 5082). Wrapped by core/runtime/tcp/native.ts; built by node-gyp from binding.gyp during `npm ci`.
 *
 * The options must be in place before the first segment: a SYN without the MD5 option is dropped by a
 * peer that expects one, so the socket is created and configured here, and only then handed to Node
 * (`new net.Socket({ fd })` + connect, or `server.listen({ fd })`), which owns and closes it from then on.
 *
 * JS API (errors are thrown as Error with `code` = errno name, e.g. "EADDRNOTAVAIL", and `errno`):
 *   open(family: 4 | 6, ttl: 0..255, minTtl: 0..255) -> fd   0 leaves the kernel's default / no check
 *   setMd5Key(fd, peer: Uint8Array(4 | 16), key: Uint8Array(0..80))   an empty key removes the peer's
 *       key (removing one that is not there is not an error)
 *   bind(fd, address: Uint8Array(4 | 16), port)        SO_REUSEADDR unless port 0, dual-stack for ::
 *   listen(fd, backlog)
 *   close(fd)                                                        for fds Node never took over
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "napi_args.h"
#include "throw_errno.h"

static int get_int(napi_env env, napi_value value, int min, int max, int *out, const char *signature) {
  int32_t v;
  if (napi_get_value_int32(env, value, &v) != napi_ok || v < min || v > max) {
    napi_throw_range_error(env, NULL, signature);
    return 0;
  }
  *out = v;
  return 1;
}

/* The bytes of a Uint8Array, which must hold between min and max bytes. */
static int get_bytes(napi_env env, napi_value value, size_t min, size_t max, const uint8_t **data,
                     size_t *length, const char *signature) {
  napi_typedarray_type type;
  void *raw;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, NULL, NULL) != napi_ok ||
      type != napi_uint8_array || *length < min || *length > max) {
    napi_throw_type_error(env, NULL, signature);
    return 0;
  }
  *data = raw;
  return 1;
}

/* The address family the socket was created with (AF_INET or AF_INET6), or -1 with errno set. */
static int socket_family(int fd) {
  int family;
  socklen_t length = sizeof family;
  if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &family, &length) < 0) return -1;
  return family;
}

/*
 * A socket address of the socket's family. An IPv4 address on an IPv6 socket becomes the v4-mapped
 * ::ffff:a.b.c.d, which is how a dual-stack listener sees IPv4 peers (the kernel files an MD5 key given
 * that way as an IPv4 key). An IPv6 address on an IPv4 socket cannot be expressed: EAFNOSUPPORT.
 */
static int make_sockaddr(int family, const uint8_t *address, size_t length, uint16_t port,
                         struct sockaddr_storage *out, socklen_t *out_length) {
  memset(out, 0, sizeof *out);
  if (family == AF_INET && length == 4) {
    struct sockaddr_in *sin = (struct sockaddr_in *)out;
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    memcpy(&sin->sin_addr, address, 4);
    *out_length = sizeof *sin;
    return 0;
  }
  if (family == AF_INET6) {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons(port);
    if (length == 16) {
      memcpy(&sin6->sin6_addr, address, 16);
    } else {
      sin6->sin6_addr.s6_addr[10] = 0xff;
      sin6->sin6_addr.s6_addr[11] = 0xff;
      memcpy(&sin6->sin6_addr.s6_addr[12], address, 4);
    }
    *out_length = sizeof *sin6;
    return 0;
  }
  return EAFNOSUPPORT;
}

static napi_value make_int(napi_env env, int value) {
  napi_value result;
  napi_create_int32(env, value, &result);
  return result;
}

static napi_value js_open(napi_env env, napi_callback_info info) {
  static const char signature[] = "open(family: 4 | 6, ttl: 0..255, minTtl: 0..255)";
  napi_value argv[3];
  int family, ttl, min_ttl;
  if (!get_args(env, info, 3, argv, signature) || !get_int(env, argv[0], 4, 6, &family, signature) ||
      !get_int(env, argv[1], 0, 255, &ttl, signature) ||
      !get_int(env, argv[2], 0, 255, &min_ttl, signature)) {
    return NULL;
  }
  if (family == 5) {
    napi_throw_range_error(env, NULL, signature);
    return NULL;
  }
  /* Non-blocking as libuv expects of the fds it adopts; close-on-exec so spawned daemons do not inherit
   * the speaker's sessions. */
  int fd = socket(family == 4 ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, errno, "socket(AF_INET%s, SOCK_STREAM)", family == 4 ? "" : "6");
  const char *step = NULL;
  /*
   * An IPv6 socket gets the IPv4 options as well: a dual-stack listener on :: carries IPv4 peers as
   * v4-mapped connections, and the kernel stamps and checks their TTL from the IPv4 settings.
   */
  if (ttl > 0) {
    step = "setsockopt(IP_TTL)";
    if (setsockopt(fd, IPPROTO_IP, IP_TTL, &ttl, sizeof ttl) < 0) goto fail;
    step = "setsockopt(IPV6_UNICAST_HOPS)";
    if (family == 6 && setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &ttl, sizeof ttl) < 0) goto fail;
  }
  /* RFC 5082 §3: the receiver discards packets whose TTL is below the configured minimum; the kernel
   * does it before TCP sees them, for the SYN on a listener and every segment on a connection. */
  if (min_ttl > 0) {
    step = "setsockopt(IP_MINTTL)";
    if (setsockopt(fd, IPPROTO_IP, IP_MINTTL, &min_ttl, sizeof min_ttl) < 0) goto fail;
    step = "setsockopt(IPV6_MINHOPCOUNT)";
    if (family == 6 && setsockopt(fd, IPPROTO_IPV6, IPV6_MINHOPCOUNT, &min_ttl, sizeof min_ttl) < 0) {
      goto fail;
    }
  }
  return make_int(env, fd);

fail:;
  int err = errno;
  close(fd);
  return throw_errno(env, err, "%s", step);
}

static napi_value js_set_md5_key(napi_env env, napi_callback_info info) {
  static const char signature[] =
      "setMd5Key(fd, peer: Uint8Array(4 | 16), key: Uint8Array(0..80 bytes))";
  napi_value argv[3];
  int fd;
  const uint8_t *peer, *key;
  size_t peer_length, key_length;
  if (!get_args(env, info, 3, argv, signature) || !get_int(env, argv[0], 0, INT32_MAX, &fd, signature) ||
      !get_bytes(env, argv[1], 4, 16, &peer, &peer_length, signature) ||
      !get_bytes(env, argv[2], 0, TCP_MD5SIG_MAXKEYLEN, &key, &key_length, signature)) {
    return NULL;
  }
  if (peer_length != 4 && peer_length != 16) {
    napi_throw_type_error(env, NULL, signature);
    return NULL;
  }
  int family = socket_family(fd);
  if (family < 0) return throw_errno(env, errno, "getsockopt(SO_DOMAIN)");
  /* RFC 2385 §2: the key is per connection, i.e. per peer address; the kernel signs every segment to
   * that peer with it and drops every segment from it that is unsigned or wrongly signed. */
  struct tcp_md5sig md5;
  memset(&md5, 0, sizeof md5);
  socklen_t address_length;
  int err = make_sockaddr(family, peer, peer_length, 0, &md5.tcpm_addr, &address_length);
  if (err != 0) return throw_errno(env, err, "an IPv6 peer on an IPv4 socket");
  md5.tcpm_keylen = (uint16_t)key_length; /* 0 asks the kernel to delete the peer's key */
  memcpy(md5.tcpm_key, key, key_length);
  if (setsockopt(fd, IPPROTO_TCP, TCP_MD5SIG, &md5, sizeof md5) < 0) {
    /* Removing a key that was never set: the peer is in the state asked for. */
    if (key_length == 0 && errno == ENOENT) return NULL;
    return throw_errno(env, errno, "setsockopt(TCP_MD5SIG)");
  }
  return NULL;
}

static napi_value js_bind(napi_env env, napi_callback_info info) {
  static const char signature[] = "bind(fd, address: Uint8Array(4 | 16), port: 0..65535)";
  napi_value argv[3];
  int fd, port;
  const uint8_t *address;
  size_t address_length;
  if (!get_args(env, info, 3, argv, signature) || !get_int(env, argv[0], 0, INT32_MAX, &fd, signature) ||
      !get_bytes(env, argv[1], 4, 16, &address, &address_length, signature) ||
      !get_int(env, argv[2], 0, 65535, &port, signature)) {
    return NULL;
  }
  int family = socket_family(fd);
  if (family < 0) return throw_errno(env, errno, "getsockopt(SO_DOMAIN)");
  /* Only true IPv6 addresses on IPv6 sockets: a v4-mapped local address would be a surprise. */
  struct sockaddr_storage sa;
  socklen_t sa_length;
  if ((family == AF_INET6 && address_length == 4) ||
      make_sockaddr(family, address, address_length, (uint16_t)port, &sa, &sa_length) != 0) {
    return throw_errno(env, EAFNOSUPPORT, "bind: the address is not of the socket's family");
  }
  /* As libuv does for its own TCP binds: a restarted speaker can take port 179 again while the last
   * run's connections sit in TIME_WAIT, and :: accepts IPv4 peers whatever net.ipv6.bindv6only says.
   * Port 0 (a source address for an outgoing connection) needs a fresh port, never a shared one. */
  int on = 1, off = 0;
  if (port != 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) < 0) {
    return throw_errno(env, errno, "setsockopt(SO_REUSEADDR)");
  }
  if (family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off) < 0) {
    return throw_errno(env, errno, "setsockopt(IPV6_V6ONLY)");
  }
  if (bind(fd, (struct sockaddr *)&sa, sa_length) < 0) return throw_errno(env, errno, "bind");
  return NULL;
}

static napi_value js_listen(napi_env env, napi_callback_info info) {
  static const char signature[] = "listen(fd, backlog: 1..65535)";
  napi_value argv[2];
  int fd, backlog;
  if (!get_args(env, info, 2, argv, signature) || !get_int(env, argv[0], 0, INT32_MAX, &fd, signature) ||
      !get_int(env, argv[1], 1, 65535, &backlog, signature)) {
    return NULL;
  }
  if (listen(fd, backlog) < 0) return throw_errno(env, errno, "listen");
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor functions[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setMd5Key", NULL, js_set_md5_key, NULL, NULL, NULL, napi_enumerable, NULL},
      {"bind", NULL, js_bind, NULL, NULL, NULL, napi_enumerable, NULL},
      {"listen", NULL, js_listen, NULL, NULL, NULL, napi_enumerable, NULL},
      {"close", NULL, js_close_fd, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok) {
    return NULL;
  }
  return exports;
}
