/* dbio's mark on the files it keeps between commands; see mark.h. */
#include "util/mark.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>

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
