/*
 * server.h — `tavoliere serve`: the game server's entry point.
 *
 * The server is its own layer above the library (src/server/): HTTP and
 * WebSocket on libwebsockets, JSON with jansson, games kept in SQLite.
 * Nothing below it knows about any of that.
 */
#ifndef SERVER_SERVER_H
#define SERVER_SERVER_H

/* `tavoliere serve [--host ADDR] [--port N] [--db PATH] [--web DIR] ...`:
 * runs until SIGINT/SIGTERM; returns the process exit status. */
int server_main(int argc, char **argv);

/* `tavoliere admin --db URL COMMAND [NAME]` (admin.c): the operator's tool
 * (reports, mute, unmute, ban, unban, log) on the database directly; the
 * process exit status. */
int admin_main(int argc, char **argv);

#endif
