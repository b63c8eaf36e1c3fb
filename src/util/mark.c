/* dbio's mark on the files it keeps between commands; see mark.h. */
#include "util/mark.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/xattr.h>
#include <unistd.h>

int mark_set(int fd, const char *maker)
{
	return fsetxattr(fd, MARK_XATTR, maker, strlen(maker), 0) ? -errno : 0;
}

int mark_clear(int fd)
{
	if (fremovexattr(fd, MARK_XATTR) == 0 || errno == ENODATA || errno == EOPNOTSUPP)
		return 0;
	return -errno;
}

int mark_check(int fd, const char *maker)
{
	char value[64];
	ssize_t n = fgetxattr(fd, MARK_XATTR, value, sizeof(value));

	if (n < 0)
		return errno == ENODATA || errno == EOPNOTSUPP ? -ENODATA : -errno;
	return (size_t)n == strlen(maker) && !memcmp(value, maker, (size_t)n) ? 0 : -ENODATA;
}

static char run_token[64];
static pthread_once_t run_token_once = PTHREAD_ONCE_INIT;

static void run_token_make(void)
{
	unsigned char rnd[8] = { 0 };

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0, sizeof(rnd)); /* the pid alone still tells runs apart */
	snprintf(run_token, sizeof(run_token), "db %d %02x%02x%02x%02x%02x%02x%02x%02x", (int)getpid(),
		 rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
}

const char *mark_run_token(void)
{
	pthread_once(&run_token_once, run_token_make);
	return run_token;
}
