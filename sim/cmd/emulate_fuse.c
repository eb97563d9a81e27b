/*
 * emulate_fuse.c - the FUSE side of emulate: one file, "disk", of the
 * drive's capacity in an otherwise empty root. Every read, write, fsync and
 * fallocate of it is a host command of the model (emu_command()); the
 * file is opened direct_io, so the kernel's page cache never answers for
 * the drive. Data lives in an anonymous mapping of the capacity, which
 * takes memory only where data was written (as the model's own map);
 * trimmed pages are given back and read as zeros. emu_command() is the
 * workers' half of the queue to the engine thread (emulate.c).
 */
#define FUSE_USE_VERSION 314
#include "sim/cmd/emulate_priv.h"
#include "sim/cmd/run.h"
#include "sim/cmd/session.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EMU_FILE "disk"
#define EMU_INO 2 /* the file's inode; 1 is the root */

static struct fuse_session *emu_session; /* from the mount to emu_fuse_close() */

uint64_t emu_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * SIM_SEC + (uint64_t)ts.tv_nsec;
}

int emu_command(Emu *emu, IoOp op, uint64_t offset, uint64_t length)
{
    pthread_mutex_lock(&emu->m);
    while (emu->nfree == 0 && !emu->failed)
        pthread_cond_wait(&emu->slot_cv, &emu->m);
    if (emu->failed) {
        pthread_mutex_unlock(&emu->m);
        return -EIO;
    }
    uint32_t id = emu->free_slot[--emu->nfree];
    EmuSlot *s = &emu->slot[id];
    s->op = (uint8_t)op;
    s->offset = offset;
    s->length = length;
    s->arrival = emu_clock() - emu->t0;
    s->state = EMU_QUEUED;
    emu->queue[(emu->qhead + emu->qlen++) % EMU_SLOTS] = id;
    emu->depth++;
    emu->floor.depth_max = MAX(emu->floor.depth_max, emu->depth);
    pthread_cond_signal(&emu->engine_cv);
    while (s->state != EMU_DONE && !emu->failed)
        pthread_cond_wait(&s->cv, &emu->m);
    int rc = 0;
    if (s->state == EMU_DONE) {
        uint64_t woke = emu_clock() - emu->t0;
        uint64_t reply = woke > s->done ? woke - s->done : 0;
        uint64_t pickup = s->submit > s->arrival ? s->submit - s->arrival : 0;
        EmuFloor *f = &emu->floor;
        f->commands++;
        f->pickup_ns += pickup;
        f->pickup_max = MAX(f->pickup_max, pickup);
        f->reply_ns += reply;
        f->reply_max = MAX(f->reply_max, reply);
        f->model_ns += s->done - s->submit;
    } else {
        rc = -EIO; /* the model stopped with the command in it */
    }
    if (s->state != EMU_IN_MODEL) { /* else the slot stays the model's */
        s->state = EMU_FREE;
        emu->free_slot[emu->nfree++] = id;
        emu->depth--;
        pthread_cond_signal(&emu->slot_cv);
    }
    pthread_mutex_unlock(&emu->m);
    return rc;
}

static void emu_attr(const Emu *emu, fuse_ino_t ino, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_ino = ino;
    st->st_uid = getuid();
    st->st_gid = getgid();
    if (ino == FUSE_ROOT_ID) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
    } else {
        st->st_mode = S_IFREG | 0644;
        st->st_nlink = 1;
        st->st_size = (off_t)emu->capacity;
        st->st_blksize = 4096;
        st->st_blocks = (blkcnt_t)(emu->capacity / 512);
    }
}

static void emu_init(void *userdata, struct fuse_conn_info *conn)
{
    (void)userdata;
    /* the kernel's queue of asynchronous requests (libaio, the loop
     * driver): deeper than any drive's, so the model sees the host's depth */
    conn->max_background = EMU_BACKGROUND;
    conn->congestion_threshold = EMU_BACKGROUND * 3 / 4;
    if (conn->capable & FUSE_CAP_ASYNC_DIO)
        conn->want |= FUSE_CAP_ASYNC_DIO;
    conn->want &= ~(unsigned)FUSE_CAP_WRITEBACK_CACHE;
}

static void emu_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
    Emu *emu = fuse_req_userdata(req);
    if (parent != FUSE_ROOT_ID || strcmp(name, EMU_FILE) != 0) {
        fuse_reply_err(req, ENOENT);
        return;
    }
    struct fuse_entry_param e;
    memset(&e, 0, sizeof e);
    e.ino = EMU_INO;
    e.attr_timeout = e.entry_timeout = 3600;
    emu_attr(emu, EMU_INO, &e.attr);
    fuse_reply_entry(req, &e);
}

static void emu_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)fi;
    struct stat st;
    emu_attr(emu, ino, &st);
    fuse_reply_attr(req, &st, 3600);
}

/* The size is the drive's; times and modes are not kept. */
static void emu_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
                        struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)fi;
    if ((to_set & FUSE_SET_ATTR_SIZE) && (uint64_t)attr->st_size != emu->capacity) {
        fuse_reply_err(req, EPERM);
        return;
    }
    struct stat st;
    emu_attr(emu, ino, &st);
    fuse_reply_attr(req, &st, 3600);
}

static void emu_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                        struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)fi;
    if (ino != FUSE_ROOT_ID) {
        fuse_reply_err(req, ENOTDIR);
        return;
    }
    static const char *const names[] = {".", "..", EMU_FILE};
    char buf[512];
    size_t used = 0;
    for (off_t i = off; i < 3; i++) {
        struct stat st;
        emu_attr(emu, i == 2 ? EMU_INO : FUSE_ROOT_ID, &st);
        size_t n = fuse_add_direntry(req, buf + used, MIN(size, sizeof buf) - used, names[i], &st,
                                     i + 1);
        if (n > MIN(size, sizeof buf) - used)
            break;
        used += n;
    }
    fuse_reply_buf(req, buf, used);
}

static void emu_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    if (ino != EMU_INO) {
        fuse_reply_err(req, EISDIR);
        return;
    }
    fi->direct_io = 1; /* every I/O reaches the model, none is cached */
    fi->keep_cache = 0;
    fi->noflush = 1; /* close() is not a cache flush; fsync() is */
    fuse_reply_open(req, fi);
}

/* Zero-filled buffer for reads with --no-data (and beyond it, rare). */
static const uint8_t emu_zeros[1 << 20];

static void emu_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                     struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)ino;
    (void)fi;
    uint64_t o = (uint64_t)off;
    size_t n = o >= emu->capacity ? 0 : (size_t)MIN((uint64_t)size, emu->capacity - o);
    if (n == 0) {
        fuse_reply_buf(req, NULL, 0);
        return;
    }
    int rc = emu_command(emu, IO_READ, o, n);
    if (rc) {
        fuse_reply_err(req, -rc);
        return;
    }
    if (emu->data) {
        fuse_reply_buf(req, (const char *)emu->data + o, n);
    } else if (n <= sizeof emu_zeros) {
        fuse_reply_buf(req, (const char *)emu_zeros, n);
    } else {
        g_autofree char *z = g_malloc0(n);
        fuse_reply_buf(req, z, n);
    }
}

static void emu_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
                      struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)ino;
    (void)fi;
    uint64_t o = (uint64_t)off;
    if (o > emu->capacity || size > emu->capacity - o) {
        fuse_reply_err(req, ENOSPC);
        return;
    }
    if (size == 0) {
        fuse_reply_write(req, 0);
        return;
    }
    /* the data is in place when the model gets the command */
    if (emu->data)
        memcpy(emu->data + o, buf, size);
    int rc = emu_command(emu, IO_WRITE, o, size);
    if (rc)
        fuse_reply_err(req, -rc);
    else
        fuse_reply_write(req, size);
}

/* Trimmed data reads as zeros: pages wholly inside are given back, the
 * edges cleared. */
static void emu_zero(Emu *emu, uint64_t off, uint64_t len)
{
    if (!emu->data || len == 0)
        return;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t lo = (off + page - 1) / page * page, hi = (off + len) / page * page;
    if (lo >= hi) {
        memset(emu->data + off, 0, len);
        return;
    }
    memset(emu->data + off, 0, lo - off);
    memset(emu->data + hi, 0, off + len - hi);
    if (madvise(emu->data + lo, hi - lo, MADV_DONTNEED) != 0)
        memset(emu->data + lo, 0, hi - lo);
}

/* A hole punched (what the loop driver sends for a discard) or a range
 * zeroed (its write-zeroes) is a TRIM; allocating is a no-op on a file
 * that always has its full size. */
static void emu_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
                          struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)ino;
    (void)fi;
    uint64_t o = (uint64_t)off, n = (uint64_t)len;
    if (off < 0 || len <= 0 || o > emu->capacity || n > emu->capacity - o) {
        fuse_reply_err(req, off < 0 || len <= 0 ? EINVAL : ENOSPC);
        return;
    }
    int m = mode & ~FALLOC_FL_KEEP_SIZE;
    if (m == 0) {
        fuse_reply_err(req, 0);
        return;
    }
    if (m != FALLOC_FL_PUNCH_HOLE && m != FALLOC_FL_ZERO_RANGE) {
        fuse_reply_err(req, EOPNOTSUPP);
        return;
    }
    emu_zero(emu, o, n);
    fuse_reply_err(req, -emu_command(emu, IO_TRIM, o, n));
}

static void emu_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
    Emu *emu = fuse_req_userdata(req);
    (void)ino;
    (void)datasync;
    (void)fi;
    fuse_reply_err(req, -emu_command(emu, IO_FLUSH, 0, 0));
}

static void emu_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
    (void)ino;
    (void)fi;
    fuse_reply_err(req, 0);
}

static void emu_statfs(fuse_req_t req, fuse_ino_t ino)
{
    Emu *emu = fuse_req_userdata(req);
    (void)ino;
    struct statvfs sv;
    memset(&sv, 0, sizeof sv);
    sv.f_bsize = sv.f_frsize = 4096;
    sv.f_blocks = emu->capacity / 4096;
    sv.f_files = 2;
    sv.f_namemax = 255;
    fuse_reply_statfs(req, &sv);
}

static const struct fuse_lowlevel_ops emu_ops = {
    .init = emu_init,
    .lookup = emu_lookup,
    .getattr = emu_getattr,
    .setattr = emu_setattr,
    .readdir = emu_readdir,
    .open = emu_open,
    .read = emu_read,
    .write = emu_write,
    .fallocate = emu_fallocate,
    .fsync = emu_fsync,
    .flush = emu_flush,
    .statfs = emu_statfs,
};

gboolean emu_fuse_check_mountpoint(const char *path, GError **error)
{
    struct stat st, up;
    if (stat(path, &st) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    errno == ENOTCONN
                        ? "mount point \"%s\": found a dead FUSE mount (%s), expected an empty "
                          "folder; clear it with fusermount3 -u %s"
                        : "mount point \"%s\": %s, expected an empty folder%s",
                    path, g_strerror(errno), errno == ENOTCONN ? path : "");
        return FALSE;
    }
    if (!S_ISDIR(st.st_mode)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "mount point \"%s\": found a file that is not a folder, expected an empty folder",
                    path);
        return FALSE;
    }
    g_autofree char *parent = g_build_filename(path, "..", NULL);
    if (stat(parent, &up) == 0 && (up.st_dev != st.st_dev || up.st_ino == st.st_ino)) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "mount point \"%s\": found a file system mounted there, expected an empty "
                    "folder that is not a mount point", path);
        return FALSE;
    }
    g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
    const char *first = dir ? g_dir_read_name(dir) : NULL;
    if (!dir || first) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    dir ? "mount point \"%s\": found \"%s\" in it, expected an empty folder"
                        : "mount point \"%s\": %s, expected a folder that can be read",
                    path, dir ? first : g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

bool emu_fuse_exited(void)
{
    struct fuse_session *se = emu_session;
    return se && fuse_session_exited(se);
}

/* The thread in fuse_session_loop_mt(), and the signal that wakes it
 * (none of the session's: a stall is not an interruption). */
static pthread_t emu_loop_thread;
static void emu_wake(int sig) { (void)sig; }

void emu_fuse_stop(void)
{
    /* the loop waits on a semaphore that only a signal interrupts */
    if (emu_session)
        fuse_session_exit(emu_session);
    pthread_kill(emu_loop_thread, SIGUSR1);
}

/* SIGINT, SIGTERM or SIGHUP (session.h's policy): the loop ends, from the
 * handler, as libfuse's own handlers would end it. */
static void emu_fuse_signal(void)
{
    struct fuse_session *se = emu_session;
    if (se)
        fuse_session_exit(se);
}

gboolean emu_fuse_serve(Emu *emu, GError **error)
{
    /* auto_unmount: fusermount3 stays behind and unmounts if this process
     * dies without doing so (SIGKILL) */
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)"ftlsim");
    g_ptr_array_add(argv, (char *)"-o");
    g_ptr_array_add(argv, emu->o->allow_other
                              ? (char *)"fsname=ftlsim,subtype=ftlsim,auto_unmount,allow_other"
                              : (char *)"fsname=ftlsim,subtype=ftlsim,auto_unmount");
    struct fuse_args args = FUSE_ARGS_INIT((int)argv->len, (char **)argv->pdata);
    struct fuse_session *se = fuse_session_new(&args, &emu_ops, sizeof emu_ops, emu);
    g_ptr_array_free(argv, TRUE);
    if (!se) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_FAILED, "cannot start a FUSE session");
        return FALSE;
    }
    /* libfuse's handlers take only signals left at their default: SIGPIPE
     * here, the session's policy (session.h) keeps SIGINT, SIGTERM, SIGHUP */
    if (fuse_set_signal_handlers(se) != 0 || fuse_session_mount(se, emu->o->mountpoint) != 0) {
        g_set_error(error, RUN_ERROR, RUN_ERROR_INPUT,
                    "mount point \"%s\": cannot mount the FUSE file system there (is /dev/fuse "
                    "present and fusermount3 installed?)", emu->o->mountpoint);
        fuse_remove_signal_handlers(se);
        fuse_session_destroy(se);
        return FALSE;
    }
    emu_session = se;
    emu_loop_thread = pthread_self();
    struct sigaction wake = {.sa_handler = emu_wake}; /* no SA_RESTART: the wait returns */
    sigemptyset(&wake.sa_mask);
    sigaction(SIGUSR1, &wake, NULL);
    session_on_signal(emu_fuse_signal);
    if (runner_signal())
        fuse_session_exit(se); /* one came before the hook */
    struct fuse_loop_config *cfg = fuse_loop_cfg_create();
    fuse_loop_cfg_set_max_threads(cfg, EMU_SLOTS);
    fuse_loop_cfg_set_idle_threads(cfg, 64);
    int rc = fuse_session_loop_mt(se, cfg);
    fuse_loop_cfg_destroy(cfg);
    session_on_signal(NULL);
    fuse_session_unmount(se);
    fuse_remove_signal_handlers(se);
    (void)rc; /* a signal's end is a normal one */
    return TRUE;
}

void emu_fuse_close(void)
{
    if (emu_session)
        fuse_session_destroy(emu_session);
    emu_session = NULL;
}
