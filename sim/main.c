/* main.c - the ftlsim command (placeholder until the CLI lands). */
#include <stdio.h>

int main(void)
{
    printf("ftlsim %s\n", FTLSIM_VERSION);
    return 0;
}
