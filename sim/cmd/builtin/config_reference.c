/* config_reference.c - "ftlsim config-reference": the documented reference config. */
#include "sim/cmd/builtin/builtin.h"

#include "sim/config/config.h"

#include <stdio.h>

int cmd_reference(int argc, char **argv)
{
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- print the documented reference config (configs/reference.ini)");
    if (!cmd_parse(ctx, &argc, &argv))
        return CMD_EXIT_INPUT;
    if (argc != 1)
        return cmd_usage(ctx, "config-reference takes no arguments");
    g_autofree char *text = config_reference_ini();
    fputs(text, stdout);
    return 0;
}
