/*
** relay.c: a TCP relay for the partition test (spec/slots/faults.sh).
**   relay LISTEN_PORT TARGET_PORT     (both on 127.0.0.1)
** Each accepted connection gets its own connection to the target; bytes
** go both ways until either side closes.  The test partitions the
** clients behind it from the store by stopping the relay (SIGSTOP: every
** byte waits, connects hang in the backlog) and heals it with SIGCONT.
** Prints "ready" once it listens.
*/
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXPAIRS 256

static int pairs[MAXPAIRS][2];   /* client, target; -1 when free */

static int tcp (int port, int listening) {
  struct sockaddr_in a;
  int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((unsigned short)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0) return -1;
  if (listening) {
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0)
      return close(fd), -1;
  } else if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
    return close(fd), -1;
  return fd;
}

static void drop (int i) {
  close(pairs[i][0]);
  close(pairs[i][1]);
  pairs[i][0] = pairs[i][1] = -1;
}

int main (int argc, char **argv) {
  struct pollfd p[1 + 2 * MAXPAIRS];
  int lfd, target, i;
  if (argc != 3) {
    fprintf(stderr, "usage: relay LISTEN_PORT TARGET_PORT\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  target = atoi(argv[2]);
  if ((lfd = tcp(atoi(argv[1]), 1)) < 0) {
    perror("relay: listen");
    return 1;
  }
  for (i = 0; i < MAXPAIRS; i++) pairs[i][0] = pairs[i][1] = -1;
  printf("ready\n");
  fflush(stdout);
  for (;;) {
    int n = 1;
    p[0].fd = lfd;
    p[0].events = POLLIN;
    for (i = 0; i < MAXPAIRS; i++) {
      p[n].fd = pairs[i][0], p[n++].events = POLLIN;
      p[n].fd = pairs[i][1], p[n++].events = POLLIN;
    }
    if (poll(p, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      perror("relay: poll");
      return 1;
    }
    if (p[0].revents & POLLIN) {
      int c = accept(lfd, NULL, NULL), t;
      if (c >= 0) {
        for (i = 0; i < MAXPAIRS && pairs[i][0] >= 0; i++) {}
        if (i == MAXPAIRS || (t = tcp(target, 0)) < 0) close(c);
        else pairs[i][0] = c, pairs[i][1] = t;
      }
    }
    for (i = 0; i < MAXPAIRS; i++) {
      int side;
      for (side = 0; side < 2 && pairs[i][0] >= 0; side++) {
        char buf[16384];
        ssize_t got;
        if (!(p[1 + 2 * i + side].revents & (POLLIN | POLLHUP | POLLERR)))
          continue;
        got = read(pairs[i][side], buf, sizeof buf);
        /* the other side takes it whole (blocking: a test's traffic is
        ** small), else the pair ends */
        if (got <= 0 || write(pairs[i][!side], buf, (size_t)got) != got)
          drop(i);
      }
    }
  }
}
