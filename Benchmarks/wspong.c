// wspong: closed-loop WebSocket load generator (RFC 6455), in the manner of ../shared/bench/linepong.c.
// Opens C connections to HOST:PORT/, shakes hands on each, optionally reads BANNER messages, then each
// connection repeatedly sends MSG as a masked text frame and waits for one whole message back.
// Prints round trips/s and latency percentiles. Bounded by SECONDS.
//   cc -O2 -o wspong Benchmarks/wspong.c && ./wspong 127.0.0.1 PORT CONNS SECONDS MSG [BANNER]
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct { int fd; int banner_left; double sent_at; unsigned char buf[8192]; int len; } conn_t;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmpd(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }

// The length of the whole frame at the start of buf, or 0 when it has not all arrived.
static int frame_length(const unsigned char *buf, int len) {
  if (len < 2) return 0;
  int n = buf[1] & 0x7F, head = 2;
  if (n == 126) { if (len < 4) return 0; n = buf[2] << 8 | buf[3]; head = 4; }
  else if (n == 127) { fprintf(stderr, "wspong: a frame over 64 KiB\n"); exit(1); }
  return len >= head + n ? head + n : 0;
}

int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage: wspong HOST PORT CONNS SECONDS MSG [BANNER_MESSAGES]\n"); return 2; }
  const char *host = argv[1]; int port = atoi(argv[2]); int nc = atoi(argv[3]); double secs = atof(argv[4]);
  int plen = strlen(argv[5]); if (plen > 125) { fprintf(stderr, "wspong: MSG over 125 bytes\n"); return 2; }
  unsigned char frame[256]; const unsigned char mask[4] = { 0x12, 0x34, 0x56, 0x78 };
  frame[0] = 0x81; frame[1] = 0x80 | plen; memcpy(frame + 2, mask, 4);
  for (int i = 0; i < plen; i++) frame[6 + i] = argv[5][i] ^ mask[i & 3];
  int flen = 6 + plen;
  int banner = argc > 6 ? atoi(argv[6]) : 0;
  const char *request = "GET / HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  int ep = epoll_create1(0);
  conn_t *cs = calloc(nc, sizeof(conn_t));
  size_t cap = 1 << 22, nlat = 0; double *lat = malloc(cap * sizeof(double));
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) }; inet_pton(AF_INET, host, &a.sin_addr);
  for (int i = 0; i < nc; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (struct sockaddr*)&a, sizeof a) < 0) { perror("connect"); return 1; }
    int one = 1; setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (write(fd, request, strlen(request)) != (ssize_t)strlen(request)) { perror("write"); return 1; }
    // The 101 response, read up to its blank line; bytes after it (a banner message) are kept.
    conn_t *c = &cs[i]; char *end = NULL;
    while (!end) {
      int r = read(fd, c->buf + c->len, sizeof c->buf - c->len - 1);
      if (r <= 0) { fprintf(stderr, "wspong: handshake failed\n"); return 1; }
      c->len += r; c->buf[c->len] = 0;
      end = strstr((char*)c->buf, "\r\n\r\n");
    }
    if (strncmp((char*)c->buf, "HTTP/1.1 101", 12)) { fprintf(stderr, "wspong: %s\n", c->buf); return 1; }
    int used = end + 4 - (char*)c->buf; memmove(c->buf, c->buf + used, c->len - used); c->len -= used;
    fcntl(fd, F_SETFL, O_NONBLOCK);
    c->fd = fd; c->banner_left = banner;
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i }; epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    if (!banner) { c->sent_at = now(); if (write(fd, frame, flen) != flen) { perror("write"); return 1; } }
  }
  double start = now(), end = start + secs; long done = 0, errors = 0;
  struct epoll_event evs[256];
  while (now() < end) {
    int n = epoll_wait(ep, evs, 256, 100);
    for (int k = 0; k < n; k++) {
      conn_t *c = &cs[evs[k].data.u32];
      int r = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
      if (r <= 0) { if (r < 0 && errno == EAGAIN) continue; errors++; epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL); close(c->fd); continue; }
      c->len += r;
      int whole;
      while ((whole = frame_length(c->buf, c->len))) {
        int opcode = c->buf[0] & 0x0F;
        memmove(c->buf, c->buf + whole, c->len - whole); c->len -= whole;
        if (opcode != 1 && opcode != 2) { errors++; continue; }
        if (c->banner_left > 0) { c->banner_left--; if (c->banner_left) continue; }
        else { double t = now(); if (nlat < cap) lat[nlat++] = t - c->sent_at; done++; }
        c->sent_at = now(); if (write(c->fd, frame, flen) != flen) { errors++; }
      }
    }
  }
  double el = now() - start;
  qsort(lat, nlat, sizeof(double), cmpd);
  double p50 = nlat ? lat[nlat / 2] : 0, p99 = nlat ? lat[(size_t)(nlat * 0.99)] : 0;
  printf("conns=%d seconds=%.2f replies=%ld errors=%ld rps=%.0f p50_us=%.1f p99_us=%.1f\n", nc, el, done, errors, done / el, p50 * 1e6, p99 * 1e6);
  return errors ? 1 : 0;
}
