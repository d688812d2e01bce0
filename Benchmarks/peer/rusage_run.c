/* rusage_run OUT CMD [ARGS...]: runs CMD with stdout to /dev/null and writes
 * "exit user_s sys_s maxrss_kib" to OUT once it ends.
 *
 * Why: Linux carries a process's peak RSS across fork and exec (the child's
 * ru_maxrss starts at the RSS of the process that forked it), so a host
 * started straight from compare's Python reported Python's ~17 MiB whatever
 * it used itself. Forked from this small program, the figure is the host's. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rusage_run OUT CMD [ARGS...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) { perror("rusage_run: fork"); return 2; }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execvp(argv[2], argv + 2);
        perror("rusage_run: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("rusage_run: wait4"); return 2; }
    FILE *out = fopen(argv[1], "w");
    if (!out) { perror("rusage_run: OUT"); return 2; }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    fprintf(out, "%d %ld.%06ld %ld.%06ld %ld\n", code, (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
            (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec, usage.ru_maxrss);
    fclose(out);
    return 0;
}
