/* drives.c - "ftlsim drives": the drive files of a folder, one a line. */
#include "sim/cmd/builtin/builtin.h"

#include "sim/config/config.h"

#include <stdio.h>

int cmd_drives(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx = g_option_context_new("[DIR] - list the drive configs in DIR");
    GError *error = NULL;
    if (!cmd_parse(ctx, &argc, &argv))
        return CMD_EXIT_INPUT;
    if (argc > 2)
        return cmd_usage(ctx, "drives takes at most one folder");
    g_autofree char *dir = argc == 2 ? g_strdup(argv[1]) : cmd_default_drives_dir();
    g_autoptr(GString) out = g_string_new(NULL);
    if (!config_list_drives(dir, out, &error))
        return cmd_fail(error, CMD_EXIT_INPUT);
    fputs(out->str, stdout);
    return 0;
}
