/*
 * Raw Ethernet frame I/O on one Linux interface through an AF_PACKET socket, for the L2 announcer
 * (ARP and NDP). Wrapped by core/runtime/af-packet-port.ts; built by node-gyp from binding.gyp during
 * `npm ci`. Plain C against node_api.h and libuv (both shipped with Node), so it needs no dependency.
 *
 * JS API (all errors are thrown as Error with `code` = errno name, e.g. "EPERM", and `errno`):
 *   open(interfaceName, onFrame) -> { handle, ifindex, mac: Uint8Array(6) }
 *       onFrame(frame: Uint8Array) is called for every ARP or ICMPv6 frame the interface receives,
 *       except the ones this host sent.
 *   send(handle, frame: Uint8Array)   one whole Ethernet frame, destination MAC first
 *   close(handle)                     idempotent; the port holds the event loop open until closed
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <node_api.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "throw_errno.h"

/* Largest frame read; ARP and NDP frames are far smaller, anything longer is dropped as truncated. */
#define FRAME_MAX 65536
#define VLAN_TAG_LEN 4
/* Frames read per wake-up at most, so a flood cannot starve the event loop; uv_poll is level-triggered,
 * so whatever is left wakes us again on the next loop turn. At 1024, a turn of the liveness thread took
 * up to 72 ms of frames during a 10,000-Service burst on a loaded machine, and heartbeats waited behind
 * two such turns; 64 lets the membership timers run every few milliseconds. */
#define MAX_FRAMES_PER_WAKEUP 64

typedef struct {
  napi_env env;
  int fd;
  int closed;
  int polling;
  /* An environment cleanup hook is registered for this port (see cleanup_hook). */
  int hooked;
  /* The JS handle (external) and the started uv_poll_t each hold one; the memory is freed when both are
   * gone, because libuv still touches the handle after uv_close until its close callback runs. */
  int refs;
  napi_ref on_frame;
  napi_async_context async;
  uv_poll_t poll;
  /* VLAN_TAG_LEN spare bytes so a stripped 802.1Q tag can be put back in place. */
  uint8_t buf[FRAME_MAX + VLAN_TAG_LEN];
} port_t;

/*
 * Classic BPF run by the kernel before a frame is queued, so the speaker only wakes for what it acts on
 * (lab probes run at 1000 pkt/s through the same interface): ARP (0x0806), or IPv6 (0x86dd) whose next
 * header (byte 20) is ICMPv6 (58). A received 802.1Q tag needs no case of its own: the kernel moves it
 * into the skb's metadata before packet sockets see the frame, so offset 12 is always the inner type.
 */
static struct sock_filter arp_and_icmpv6[] = {
    BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_ARP, 3, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_IPV6, 0, 3),
    BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 20),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_ICMPV6, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, UINT32_MAX), /* accept the whole frame */
    BPF_STMT(BPF_RET | BPF_K, 0),          /* drop */
};

static void release(port_t *p) {
  if (--p->refs == 0) free(p);
}

static void on_poll_closed(uv_handle_t *handle) { release(handle->data); }

static void cleanup_hook(void *arg);

/* `ending`: the environment is being torn down (see cleanup_hook). */
static void close_port_as(napi_env env, port_t *p, int ending) {
  if (p->closed) return;
  p->closed = 1;
  if (p->hooked) {
    p->hooked = 0;
    napi_remove_env_cleanup_hook(env, cleanup_hook, p);
  }
  if (p->on_frame != NULL) napi_delete_reference(env, p->on_frame);
  if (p->async != NULL) napi_async_destroy(env, p->async);
  /* uv_close removes the fd from epoll at once, so the fd can be closed right after it. While the
   * environment ends, the close callback would run after Node has unloaded this addon, so none is
   * given, and the port's memory is left to the process (libuv still touches the handle). */
  if (p->polling) uv_close((uv_handle_t *)&p->poll, ending ? NULL : on_poll_closed);
  close(p->fd);
}

static void close_port(napi_env env, port_t *p) { close_port_as(env, p, 0); }

/*
 * The kernel strips a received 802.1Q tag into metadata (__netif_receive_skb_core untags before any
 * packet socket sees the frame) and reports it in PACKET_AUXDATA. Put it back, as libpcap does, so the
 * frame reads as it was on the wire and the announcer answers on the VLAN it was asked on.
 */
static size_t restore_vlan_tag(uint8_t *frame, size_t len, struct msghdr *msg) {
  for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
    if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA) continue;
    struct tpacket_auxdata aux;
    memcpy(&aux, CMSG_DATA(c), sizeof aux);
    if (!(aux.tp_status & TP_STATUS_VLAN_VALID)) return len;
    uint16_t tag[2] = {
        htons(aux.tp_status & TP_STATUS_VLAN_TPID_VALID ? aux.tp_vlan_tpid : ETH_P_8021Q),
        htons(aux.tp_vlan_tci),
    };
    memmove(frame + 2 * ETH_ALEN + VLAN_TAG_LEN, frame + 2 * ETH_ALEN, len - 2 * ETH_ALEN);
    memcpy(frame + 2 * ETH_ALEN, tag, VLAN_TAG_LEN);
    return len + VLAN_TAG_LEN;
  }
  return len;
}

/* Calls onFrame with a copy of the frame; returns 0 when JS threw (the error has been raised as an
 * uncaught exception, as for any event listener) or N-API failed, so the caller stops reading. */
static int deliver(port_t *p, size_t len) {
  napi_env env = p->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return 0;
  void *data;
  napi_value buffer, frame, callback, global, result;
  napi_status status = napi_create_arraybuffer(env, len, &data, &buffer);
  if (status == napi_ok) {
    memcpy(data, p->buf, len);
    status = napi_create_typedarray(env, napi_uint8_array, len, buffer, 0, &frame);
  }
  if (status == napi_ok) status = napi_get_reference_value(env, p->on_frame, &callback);
  if (status == napi_ok) status = napi_get_global(env, &global);
  /* napi_make_callback (not napi_call_function): we are called from libuv, outside any JS frame, and it
   * runs the microtask queue and async hooks the way Node's own I/O callbacks do. */
  if (status == napi_ok) status = napi_make_callback(env, p->async, global, callback, 1, &frame, &result);
  if (status == napi_pending_exception) {
    napi_value error;
    napi_get_and_clear_last_exception(env, &error);
    napi_fatal_exception(env, error);
  }
  napi_close_handle_scope(env, scope);
  return status == napi_ok;
}

static void on_readable(uv_poll_t *poll, int status, int events) {
  (void)events;
  port_t *p = poll->data;
  if (status < 0) {
    /* libuv reports POLLERR as UV_EBADF and stops the handle. A packet socket raises POLLERR (ENETDOWN)
     * when its interface goes down and the kernel re-attaches it when the link comes back up, so
     * consume the error (reading SO_ERROR clears it) and keep polling: a link flap must not leave the
     * speaker deaf. */
    int err = 0;
    socklen_t err_len = sizeof err;
    if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &err, &err_len) == 0) {
      uv_poll_start(&p->poll, UV_READABLE, on_readable);
    }
    return;
  }
  for (int i = 0; i < MAX_FRAMES_PER_WAKEUP && !p->closed; i++) {
    struct sockaddr_ll from;
    char control[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
    struct iovec iov = {.iov_base = p->buf, .iov_len = FRAME_MAX};
    struct msghdr msg = {
        .msg_name = &from,
        .msg_namelen = sizeof from,
        .msg_iov = &iov,
        .msg_iovlen = 1,
        .msg_control = control,
        .msg_controllen = sizeof control,
    };
    ssize_t n = recvmsg(p->fd, &msg, 0);
    if (n < 0 && errno == EINTR) continue;
    /* EAGAIN: drained. ENETDOWN is reported once when the link goes down; nothing else is expected. */
    if (n < 0) return;
    /* An ETH_P_ALL socket also sees frames leaving the interface: the kernel's own ARP and NDP, other
     * sockets' (not this socket's own: the kernel skips the sender). None of them is news to us. */
    if (from.sll_pkttype == PACKET_OUTGOING) continue;
    if ((msg.msg_flags & MSG_TRUNC) || n < ETH_HLEN) continue;
    if (!deliver(p, restore_vlan_tag(p->buf, (size_t)n, &msg))) return;
  }
}

/* Opens the socket and configures it; returns the fd, or -1 with a JS error thrown. */
static int open_socket(napi_env env, const char *name, int *ifindex, uint8_t mac[ETH_ALEN]) {
  /* Protocol 0: the socket receives nothing until bind() names ETH_P_ALL, after the filter is in place,
   * so no frame from another interface, or one the filter would drop, is ever queued. */
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    int err = errno;
    if (err == EPERM || err == EACCES) {
      throw_errno(env, err, "socket(AF_PACKET) needs CAP_NET_RAW (run as root or grant the capability)");
    } else {
      throw_errno(env, err, "socket(AF_PACKET)");
    }
    return -1;
  }
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  memcpy(ifr.ifr_name, name, strlen(name)); /* the caller checked it fits with its NUL */
  const char *step = "ioctl(SIOCGIFINDEX)";
  if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
    if (errno == ENODEV) step = "no such interface in this network namespace";
    goto fail;
  }
  *ifindex = ifr.ifr_ifindex;
  step = "ioctl(SIOCGIFHWADDR)";
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) goto fail;
  /* ARP and NDP frames are built with 6-byte MACs at fixed offsets; a tun or ip6gre device would
   * silently get garbage. */
  if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
    errno = EINVAL;
    step = "not an Ethernet interface";
    goto fail;
  }
  memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);

  struct sock_fprog program = {
      .len = sizeof arp_and_icmpv6 / sizeof arp_and_icmpv6[0],
      .filter = arp_and_icmpv6,
  };
  step = "setsockopt(SO_ATTACH_FILTER)";
  if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) < 0) goto fail;
  int on = 1;
  step = "setsockopt(PACKET_AUXDATA)";
  if (setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &on, sizeof on) < 0) goto fail;
  /* NS for a VIP go to its solicited-node group (33:33:ff:xx:xx:xx), which a real NIC's multicast filter
   * drops unless someone joined it; all-multicast lets them in for as long as this socket lives (the
   * kernel drops the membership on close). The BPF filter keeps the extra traffic out of user space. */
  struct packet_mreq membership = {.mr_ifindex = *ifindex, .mr_type = PACKET_MR_ALLMULTI};
  step = "setsockopt(PACKET_ADD_MEMBERSHIP)";
  if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &membership, sizeof membership) < 0) goto fail;
  struct sockaddr_ll address = {
      .sll_family = AF_PACKET,
      .sll_protocol = htons(ETH_P_ALL),
      .sll_ifindex = *ifindex,
  };
  step = "bind";
  if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) goto fail;
  return fd;

fail:;
  int err = errno;
  close(fd);
  throw_errno(env, err, "%s", step);
  return -1;
}

/* Closes a half-opened port after an N-API call failed, making sure the caller sees an exception. */
static napi_value abandon(napi_env env, port_t *p) {
  close_port(env, p);
  napi_throw_error(env, NULL, "af_packet: an N-API call failed while opening the port");
  return NULL;
}

/*
 * A worker thread that ends with a port still open crashed the whole process (SIGSEGV): libuv ran the
 * poll handle's close callback after Node had unloaded the worker's copy of this addon. Node runs
 * environment cleanup hooks before that, so the port is closed here, without a callback.
 */
static void cleanup_hook(void *arg) {
  port_t *p = arg;
  p->hooked = 0;
  close_port_as(p->env, p, 1);
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  close_port(env, data);
  release(data);
}

static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_valuetype callback_type = napi_undefined;
  char name[IFNAMSIZ + 1];
  size_t name_len = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_string_utf8(env, argv[0], name, sizeof name, &name_len) != napi_ok ||
      napi_typeof(env, argv[1], &callback_type) != napi_ok || callback_type != napi_function) {
    napi_throw_type_error(env, NULL, "open(interfaceName: string, onFrame: function)");
    return NULL;
  }
  /* Longer names would be cut to IFNAMSIZ - 1 bytes and could open a different interface. */
  if (name_len == 0 || name_len >= IFNAMSIZ || strlen(name) != name_len) {
    napi_throw_range_error(env, NULL, "an interface name has 1 to 15 bytes and no NUL");
    return NULL;
  }
  int ifindex;
  uint8_t mac[ETH_ALEN];
  int fd = open_socket(env, name, &ifindex, mac);
  if (fd < 0) return NULL;

  port_t *p = calloc(1, sizeof *p);
  if (p == NULL) {
    close(fd);
    return throw_errno(env, ENOMEM, "allocating the port");
  }
  p->env = env;
  p->fd = fd;
  p->refs = 1;
  napi_value handle, resource_name, result, ifindex_value, mac_buffer, mac_value;
  void *mac_data;
  /* From here on the external owns the port: on any failure close_port releases what exists and the
   * finalizer frees the memory. */
  if (napi_create_external(env, p, finalize, NULL, &handle) != napi_ok) {
    close(fd);
    free(p);
    napi_throw_error(env, NULL, "af_packet: napi_create_external failed");
    return NULL;
  }
  if (napi_add_env_cleanup_hook(env, cleanup_hook, p) != napi_ok) return abandon(env, p);
  p->hooked = 1;
  if (napi_create_reference(env, argv[1], 1, &p->on_frame) != napi_ok ||
      napi_create_string_utf8(env, "lblab:af_packet", NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_async_init(env, NULL, resource_name, &p->async) != napi_ok ||
      napi_create_object(env, &result) != napi_ok ||
      napi_create_int32(env, ifindex, &ifindex_value) != napi_ok ||
      napi_create_arraybuffer(env, ETH_ALEN, &mac_data, &mac_buffer) != napi_ok ||
      napi_create_typedarray(env, napi_uint8_array, ETH_ALEN, mac_buffer, 0, &mac_value) != napi_ok ||
      napi_set_named_property(env, result, "handle", handle) != napi_ok ||
      napi_set_named_property(env, result, "ifindex", ifindex_value) != napi_ok ||
      napi_set_named_property(env, result, "mac", mac_value) != napi_ok) {
    return abandon(env, p);
  }
  memcpy(mac_data, mac, ETH_ALEN);

  uv_loop_t *loop;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok) return abandon(env, p);
  p->poll.data = p;
  int uv_err = uv_poll_init_socket(loop, &p->poll, fd);
  if (uv_err == 0) {
    p->polling = 1;
    p->refs++;
    uv_err = uv_poll_start(&p->poll, UV_READABLE, on_readable);
  }
  if (uv_err != 0) {
    close_port(env, p);
    return throw_errno(env, -uv_err, "uv_poll_start");
  }
  return result;
}

/* The port behind `value`, or NULL with a TypeError thrown. */
static port_t *port_of(napi_env env, napi_value value) {
  void *data = NULL;
  if (napi_get_value_external(env, value, &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a handle returned by open()");
    return NULL;
  }
  return data;
}

static napi_value js_send(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) {
    napi_throw_type_error(env, NULL, "send(handle, frame: Uint8Array)");
    return NULL;
  }
  port_t *p = port_of(env, argv[0]);
  if (p == NULL) return NULL;
  napi_typedarray_type type;
  size_t length;
  void *data;
  if (napi_get_typedarray_info(env, argv[1], &type, &length, &data, NULL, NULL) != napi_ok ||
      type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "a frame is a Uint8Array");
    return NULL;
  }
  if (p->closed) return throw_errno(env, EBADF, "send on a closed port");
  /* The socket is bound to the interface, so a plain send() goes out there, unchanged. Non-blocking:
   * a full transmit queue is EAGAIN/ENOBUFS for the caller to count, never a stalled event loop. */
  if (send(p->fd, data, length, 0) < 0) return throw_errno(env, errno, "send");
  return NULL;
}

static napi_value js_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, "close(handle)");
    return NULL;
  }
  port_t *p = port_of(env, argv[0]);
  if (p != NULL) close_port(env, p);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor functions[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_enumerable, NULL},
      {"send", NULL, js_send, NULL, NULL, NULL, napi_enumerable, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions) != napi_ok) {
    return NULL;
  }
  return exports;
}
