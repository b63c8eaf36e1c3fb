/*
 * What proves an image dbio's: the random token of its run, in a trailer
 * past the loop device's size limit (mkfs never sees it), and the image's
 * identity (st_dev, st_ino) as the kernel prints it. image.c writes the
 * trailer; image.c and loop.c (which loop device holds dbio's image) both
 * read it, so it sits below them and calls neither.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "provision/provision_int.h"

uint64_t provision_kernel_dev(dev_t dev)
{
	uint64_t ma = major(dev), mi = minor(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffull) << 12);
}

int provision_token_new(char *token)
{
	unsigned char rnd[PROVISION_TOKEN_LEN / 2];

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return -errno;
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(token + 2 * i, 3, "%02x", rnd[i]);
	return 0;
}

int provision_trailer_write(int fd, uint64_t offset, const char *token)
{
	char trailer[PROVISION_TRAILER_BYTES] = PROVISION_TRAILER_MAGIC;

	memcpy(trailer + strlen(PROVISION_TRAILER_MAGIC), token, PROVISION_TOKEN_LEN);
	trailer[strlen(PROVISION_TRAILER_MAGIC) + PROVISION_TOKEN_LEN] = '\n';
	if (pwrite(fd, trailer, sizeof(trailer), (off_t)offset) != (ssize_t)sizeof(trailer) || fdatasync(fd))
		return errno ? -errno : -EIO;
	return 0;
}

int provision_trailer_token(int fd, char *token)
{
	char buf[sizeof(PROVISION_TRAILER_MAGIC) + PROVISION_TOKEN_LEN];
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)PROVISION_TRAILER_BYTES ||
	    pread(fd, buf, sizeof(buf), st.st_size - PROVISION_TRAILER_BYTES) != (ssize_t)sizeof(buf) ||
	    memcmp(buf, PROVISION_TRAILER_MAGIC, strlen(PROVISION_TRAILER_MAGIC)))
		return -ENOENT;
	memcpy(token, buf + strlen(PROVISION_TRAILER_MAGIC), PROVISION_TOKEN_LEN);
	token[PROVISION_TOKEN_LEN] = '\0';
	return 0;
}

bool provision_image_is(const char *path, const char *token, uint64_t idev, uint64_t iino)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char found[PROVISION_TOKEN_LEN + 1];
	struct stat st;
	bool ours;

	if (fd < 0)
		return false;
	ours = !fstat(fd, &st) && (!idev || (provision_kernel_dev(st.st_dev) == idev && st.st_ino == iino)) &&
	       !provision_trailer_token(fd, found) && !strcmp(found, token);
	close(fd);
	return ours;
}
