// Linux calls that the Glibc Swift module does not export: epoll, eventfd and accept4.
#ifndef C_MOCKSERVER_LINUX_H
#define C_MOCKSERVER_LINUX_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// accept4(2), which glibc declares only under _GNU_SOURCE.
int CMockServer_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif
#endif
