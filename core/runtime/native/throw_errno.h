/* Shared by the native addons (af_packet.c, tcp_options.c, udp_options.c): system errors thrown into
 * JavaScript. */
#ifndef LBLAB_THROW_ERRNO_H
#define LBLAB_THROW_ERRNO_H

#include <node_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

/* Throws Error("<context>: <strerror> (<ENAME>)") with code = "ENAME" and errno = -err, the shape of
 * Node's own system errors. Returns NULL so callers can `return throw_errno(...)`. */
static napi_value throw_errno(napi_env env, int err, const char *fmt, ...) {
  char context[160], text[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  snprintf(text, sizeof text, "%s: %s (%s)", context, strerror(err), uv_err_name(-err));
  napi_value code, message, error, errno_value;
  napi_create_string_utf8(env, uv_err_name(-err), NAPI_AUTO_LENGTH, &code);
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
  napi_create_error(env, code, message, &error);
  napi_create_int32(env, -err, &errno_value);
  napi_set_named_property(env, error, "errno", errno_value);
  napi_throw(env, error);
  return NULL;
}

#endif
