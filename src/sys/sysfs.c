/*
 * sysfs and procfs values; see sysfs.h. Everything goes through
 * sysfs_read_line, so every caller sees the same text for the same file.
 */
#include "sys/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return -errno;
	/* One read is a whole sysfs attribute; procfs may hand out less. */
	while (off + 1 < len) {
		ssize_t n = read(fd, buf + off, len - 1 - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int rc = -errno;

			close(fd);
			return rc;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int sysfs_read_value(const char *path, char *buf, size_t len)
{
	int rc = sysfs_read_line(path, buf, len);
	size_t n;

	if (rc)
		return rc;
	n = strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

int sysfs_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int sysfs_active_choice(const char *text, char *out, size_t len)
{
	const char *open_br = strchr(text, '['), *close_br;

	if (!open_br) {
		if (!*text || strpbrk(text, " \t\n") || strlen(text) >= len)
			return -EINVAL;
		snprintf(out, len, "%s", text);
		return 0;
	}
	close_br = strchr(open_br, ']');
	if (!close_br || (size_t)(close_br - open_br - 1) >= len)
		return -EINVAL;
	memcpy(out, open_br + 1, (size_t)(close_br - open_br - 1));
	out[close_br - open_br - 1] = '\0';
	return 0;
}

int sysfs_read_choice(const char *path, char *out, size_t len)
{
	char text[1024];
	int rc = sysfs_read_value(path, text, sizeof(text));

	return rc ? rc : sysfs_active_choice(text, out, len);
}

/* dir/file into buf; -ENAMETOOLONG rather than a cut path. */
static int join(char *buf, size_t len, const char *dir, const char *file)
{
	int n = snprintf(buf, len, "%s/%s", dir, file);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sysfs_block_dir(char *buf, size_t len, const char *root, const char *name)
{
	int n = snprintf(buf, len, "%s/block/%s", root, name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sysfs_block_dev(const char *dir, char *devno, size_t len)
{
	char path[4096];
	int rc = join(path, sizeof(path), dir, "dev");

	return rc ? rc : sysfs_read_value(path, devno, len);
}

int sysfs_block_scheduler(const char *dir, char *name, size_t len)
{
	char path[4096];
	int rc = join(path, sizeof(path), dir, "queue/scheduler");

	return rc ? rc : sysfs_read_choice(path, name, len);
}

int sysfs_block_set_scheduler(const char *dir, const char *name)
{
	char path[4096];
	int rc = join(path, sizeof(path), dir, "queue/scheduler");

	return rc ? rc : sysfs_write(path, name);
}

int sysfs_loop_backing(const char *dir, char *path, size_t len, bool *deleted)
{
	static const char mark[] = " (deleted)";
	char file[4096];
	size_t n;
	int rc = join(file, sizeof(file), dir, "loop/backing_file");

	*deleted = false;
	if (rc || (rc = sysfs_read_line(file, path, len)))
		return rc;
	if (!*path)
		return -ENOENT;
	/* The kernel prints d_path(), which marks an unlinked file. */
	n = strlen(path);
	if (n > sizeof(mark) - 1 && !strcmp(path + n - (sizeof(mark) - 1), mark)) {
		path[n - (sizeof(mark) - 1)] = '\0';
		*deleted = true;
	}
	return 0;
}
