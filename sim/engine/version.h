/* version.h - the version of ftlsim, recorded in every result. */
#ifndef FTLSIM_VERSION_H
#define FTLSIM_VERSION_H

const char *ftlsim_version(void);

#endif
