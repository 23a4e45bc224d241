/* Shared by the socket addons (tcp_options.c, udp_options.c): reading arguments, and closing an fd
 * that Node never took over. */
#ifndef LBLAB_NAPI_ARGS_H
#define LBLAB_NAPI_ARGS_H

#include <node_api.h>
#include <stdint.h>
#include <unistd.h>

/* Reads `count` arguments into argv; throws a TypeError naming the signature when there are fewer. */
static int get_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv,
                    const char *signature) {
  size_t argc = count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < count) {
    napi_throw_type_error(env, NULL, signature);
    return 0;
  }
  return 1;
}

/* close(fd) from JavaScript. Linux releases the fd even when close reports an error, so there is
 * nothing to retry and nothing to report. */
static napi_value js_close_fd(napi_env env, napi_callback_info info) {
  static const char signature[] = "close(fd)";
  napi_value argv[1];
  int32_t fd;
  if (!get_args(env, info, 1, argv, signature)) return NULL;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_throw_range_error(env, NULL, signature);
    return NULL;
  }
  close(fd);
  return NULL;
}

#endif
