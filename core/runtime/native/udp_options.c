/*
 * UDP sockets for BFD (RFC 5881, RFC 5883) with what Node's dgram cannot do: a classic BPF socket filter
 * that checks the TTL / hop limit of every received packet in the kernel. Node never tells a dgram
 * listener the TTL a packet arrived with, and Linux ignores IP_MINTTL and IPV6_MINHOPCOUNT on UDP
 * sockets (they are TCP-only), so the filter is the only exact check that leaves reading to Node.
 * Wrapped by core/runtime/bfd/native.ts; built by node-gyp from binding.gyp during `npm ci`.
 *
 * The filter and the TTL must be in place before the socket is bound: a packet queued between bind()
 * and SO_ATTACH_FILTER would reach the reader unchecked. So the socket is created, configured and bound
 * here, and only then handed to Node (`dgram.Socket.bind({ fd })`), which owns and closes it from then on.
 *
 * JS API (errors are thrown as Error with `code` = errno name, e.g. "EADDRINUSE", and `errno`):
 *   open(address: Uint8Array(4 | 16), port: 0..65535, ttl: 0..255, filter: number[]) -> fd
 *       the family follows the address's length; IPv6 sockets are IPv6-only; ttl 0 keeps the default;
 *       filter holds 4 numbers per instruction: code, jt, jf, k (struct sock_filter)
 *   setFilter(fd, filter: number[])   replaces the filter at once (packets already queued stay)
 *   close(fd)                         for fds Node never took over
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "napi_args.h"
#include "throw_errno.h"

static int get_int(napi_env env, napi_value value, int64_t min, int64_t max, int64_t *out,
                   const char *signature) {
  int64_t v;
  double d;
  /* napi_get_value_int64 truncates fractions; a k of 0xffffffff does not fit an int32. */
  if (napi_get_value_double(env, value, &d) != napi_ok || napi_get_value_int64(env, value, &v) != napi_ok ||
      (double)v != d || v < min || v > max) {
    napi_throw_range_error(env, NULL, signature);
    return 0;
  }
  *out = v;
  return 1;
}

/*
 * The filter as the kernel wants it, read from a flat JS array of code, jt, jf, k. Returns a malloc'ed
 * array (the caller frees it) or NULL with a JS exception pending.
 */
static struct sock_filter *get_filter(napi_env env, napi_value value, unsigned short *length,
                                      const char *signature) {
  uint32_t n;
  bool is_array;
  if (napi_is_array(env, value, &is_array) != napi_ok || !is_array ||
      napi_get_array_length(env, value, &n) != napi_ok || n == 0 || n % 4 != 0 ||
      n / 4 > BPF_MAXINSNS) {
    napi_throw_type_error(env, NULL, signature);
    return NULL;
  }
  struct sock_filter *program = calloc(n / 4, sizeof *program);
  if (program == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  static const int64_t max[4] = {0xffff, 0xff, 0xff, 0xffffffff};
  for (uint32_t i = 0; i < n; i++) {
    napi_value element;
    int64_t v;
    if (napi_get_element(env, value, i, &element) != napi_ok ||
        !get_int(env, element, 0, max[i % 4], &v, signature)) {
      free(program);
      return NULL;
    }
    struct sock_filter *ins = &program[i / 4];
    switch (i % 4) {
      case 0: ins->code = (uint16_t)v; break;
      case 1: ins->jt = (uint8_t)v; break;
      case 2: ins->jf = (uint8_t)v; break;
      default: ins->k = (uint32_t)v; break;
    }
  }
  *length = (unsigned short)(n / 4);
  return program;
}

static int attach_filter(int fd, struct sock_filter *program, unsigned short length) {
  struct sock_fprog fprog = {.len = length, .filter = program};
  return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof fprog);
}

static napi_value js_open(napi_env env, napi_callback_info info) {
  static const char signature[] =
      "open(address: Uint8Array(4 | 16), port: 0..65535, ttl: 0..255, filter: number[4n])";
  napi_value argv[4];
  napi_typedarray_type type;
  size_t address_length;
  void *address;
  int64_t port, ttl;
  if (!get_args(env, info, 4, argv, signature)) return NULL;
  if (napi_get_typedarray_info(env, argv[0], &type, &address_length, &address, NULL, NULL) != napi_ok ||
      type != napi_uint8_array || (address_length != 4 && address_length != 16)) {
    napi_throw_type_error(env, NULL, signature);
    return NULL;
  }
  if (!get_int(env, argv[1], 0, 65535, &port, signature) || !get_int(env, argv[2], 0, 255, &ttl, signature)) {
    return NULL;
  }
  unsigned short length;
  struct sock_filter *program = get_filter(env, argv[3], &length, signature);
  if (program == NULL) return NULL;

  int v6 = address_length == 16;
  /* Non-blocking as libuv expects of the fds it adopts; close-on-exec so spawned daemons do not inherit
   * the speaker's sessions. */
  int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    free(program);
    return throw_errno(env, errno, "socket(AF_INET%s, SOCK_DGRAM)", v6 ? "6" : "");
  }
  const char *step = "setsockopt(SO_ATTACH_FILTER)";
  if (attach_filter(fd, program, length) < 0) goto fail;
  int on = 1, hops = (int)ttl;
  /* IPv4 gets its own socket: an IPv6 one would otherwise take IPv4 packets too, as v4-mapped ones,
   * and its filter, which reads IPv6 header offsets, would misjudge them. */
  step = "setsockopt(IPV6_V6ONLY)";
  if (v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) < 0) goto fail;
  if (hops > 0) {
    step = v6 ? "setsockopt(IPV6_UNICAST_HOPS)" : "setsockopt(IP_TTL)";
    if (v6 ? setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &hops, sizeof hops) < 0
           : setsockopt(fd, IPPROTO_IP, IP_TTL, &hops, sizeof hops) < 0) {
      goto fail;
    }
  }
  /* No SO_REUSEADDR: a second BFD implementation on the same port would split the packets between the
   * two, so the bind must fail (EADDRINUSE) instead. */
  struct sockaddr_storage sa;
  socklen_t sa_length;
  memset(&sa, 0, sizeof sa);
  if (v6) {
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&sa;
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons((uint16_t)port);
    memcpy(&sin6->sin6_addr, address, 16);
    sa_length = sizeof *sin6;
  } else {
    struct sockaddr_in *sin = (struct sockaddr_in *)&sa;
    sin->sin_family = AF_INET;
    sin->sin_port = htons((uint16_t)port);
    memcpy(&sin->sin_addr, address, 4);
    sa_length = sizeof *sin;
  }
  step = "bind";
  if (bind(fd, (struct sockaddr *)&sa, sa_length) < 0) goto fail;
  free(program);
  napi_value result;
  napi_create_int32(env, fd, &result);
  return result;

fail:;
  int err = errno;
  free(program);
  close(fd);
  return throw_errno(env, err, "%s", step);
}

static napi_value js_set_filter(napi_env env, napi_callback_info info) {
  static const char signature[] = "setFilter(fd, filter: number[4n])";
  napi_value argv[2];
  int64_t fd;
  if (!get_args(env, info, 2, argv, signature) || !get_int(env, argv[0], 0, INT32_MAX, &fd, signature)) {
    return NULL;
  }
  unsigned short length;
  struct sock_filter *program = get_filter(env, argv[1], &length, signature);
  if (program == NULL) return NULL;
  /* The kernel swaps the old program for the new one atomically: no packet goes unchecked. */
  int rc = attach_filter((int)fd, program, length);
  int err = errno;
  free(program);
  if (rc < 0) return throw_errno(env, err, "setsockopt(SO_ATTACH_FILTER)");
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor functions[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setFilter", NULL, js_set_filter, NULL, NULL, NULL, napi_enumerable, NULL},
      {"close", NULL, js_close_fd, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok) {
    return NULL;
  }
  return exports;
}
