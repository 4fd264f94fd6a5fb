// Linux calls that the Glibc Swift module does not export: epoll, eventfd, accept4 and ioctl.
#ifndef C_MOCKSERVER_LINUX_H
#define C_MOCKSERVER_LINUX_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// accept4(2), which glibc declares only under _GNU_SOURCE.
int CMockServer_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// The data bytes in the socket's send queue that the peer has not acknowledged (ioctl SIOCOUTQ,
/// less our FIN's sequence number while that is unacknowledged), or -1.
int CMockServer_unacknowledged(int fd);

/// mallopt(M_MMAP_THRESHOLD, bytes), which the Glibc module does not export: allocations of `bytes`
/// or more are mapped on their own and unmapped when freed. 1 on success, 0 otherwise.
int CMockServer_setMmapThreshold(long bytes);
#endif
#endif
