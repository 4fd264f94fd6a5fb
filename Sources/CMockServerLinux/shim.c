#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <malloc.h>
#include "CMockServerLinux.h"

int CMockServer_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

int CMockServer_unacknowledged(int fd) {
    int count = 0;
    if (ioctl(fd, SIOCOUTQ, &count) != 0) return -1;
    if (count > 0) {
        // Once our side is shut down, the queue also counts the FIN's sequence number until the
        // peer acknowledges the FIN, which a peer that has read everything delays (40 ms or more,
        // or until it closes). In these states our FIN is sent and unacknowledged: it is no data.
        struct tcp_info info;
        socklen_t length = sizeof info;
        if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) == 0
            && (info.tcpi_state == TCP_FIN_WAIT1 || info.tcpi_state == TCP_CLOSING || info.tcpi_state == TCP_LAST_ACK)) {
            count -= 1;
        }
    }
    return count;
}
int CMockServer_setMmapThreshold(long bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)bytes);
}
#endif
