/*
 * errcode.c — the stable `code` beside every refusal's `error` (SPEC
 * "Languages"; docs/server-api.md "Refusals and their codes").
 *
 * The English `error` says what happened with its particulars ("stale ply
 * 22: 21 moves were played"); the `code` names the kind of refusal, never
 * changes meaning, and is what a page in another language looks up
 * (the catalogs web/i18n/en.json and it.json, keys "code.<code>").  Every refusal has one: a message
 * of a known kind gets its own code, any other the code of its HTTP status.
 *
 * Patterns are matched whole; `*` stands for any run of characters (a
 * number, a name, the rest of a sentence).
 */
#include <string.h>

#include "server/srv.h"

/* The HTTP status of a core answer. */
int api_http_status(core_status st)
{
    switch (st) {
    case CORE_OK: return 200;
    case CORE_CREATED: return 201;
    case CORE_OFFERED: return 202;
    case CORE_BAD: return 400;
    case CORE_FORBIDDEN: return 403;
    case CORE_NOTFOUND: return 404;
    case CORE_CONFLICT: return 409;
    case CORE_LIMIT: return 429;
    case CORE_UNAVAILABLE: return 503;
    case CORE_AGAIN: return 503;   /* when asking again after the commit did not settle it */
    default: return 500;
    }
}

typedef struct {
    const char *pattern;
    const char *code;
} kind;

static const kind kinds[] = {
    /* a move and the game's state */
    {"illegal move*", "illegal_move"},
    {"it is not your turn", "not_your_turn"},
    {"stale ply *", "stale_ply"},
    {"the game is over*", "game_over"},
    {"the game is not over", "game_not_over"},
    {"not a seat of this game", "not_a_seat"},
    {"no such game", "no_such_game"},
    {"the game is being stored: try again", "try_again"},
    {"the game could not be read: try again", "try_again"},
    {"the first move came too late: the game is aborted", "aborted_late"},
    {"both sides have moved: too late to abort (resign instead)", "too_late_to_abort"},
    {"nothing to claim*", "nothing_to_claim"},
    {"the other player may still come back: claim in *", "claim_later"},
    /* undo, hints, offers */
    {"no undo in a rated game", "no_undo_rated"},
    {"moves are taken back only against a computer seat", "undo_computer_only"},
    {"moves are not taken back in *", "undo_hidden"},
    {"nothing to take back", "nothing_to_undo"},
    {"no engine help in a rated game until it is over", "no_help_rated"},
    {"a hint for this game is being searched already", "hint_busy"},
    {"no hint for this position", "no_hint"},
    {"the position changed before a hint was found", "hint_stale"},
    {"offers are between two people*", "offers_people_only"},
    {"nothing is offered", "nothing_offered"},
    {"the other side has offered it: accept it instead", "offered_already"},
    {"the other side has offered nothing of the kind", "nothing_offered"},
    {"you have offered this once since the last move*", "offered_once"},
    {"too many offers: *", "too_many_offers"},
    {"no rematch is offered", "no_rematch"},
    {"your rematch offer in this game was withdrawn or declined*", "rematch_declined"},
    {"game *: unknown, or followed by a rematch already", "rematch_gone"},
    /* accounts */
    {"wrong name or password", "wrong_password"},
    {"the name is taken", "name_taken"},
    {"names Computer-... are the computer's", "name_reserved"},
    {"a name is * of A-Z a-z 0-9 _ -", "bad_name"},
    {"a name is 1 to * bytes*", "bad_label"},
    {"a password is * to * bytes", "bad_password"},
    {"that password is one of the most common ones*", "common_password"},
    {"not signed in", "sign_in"},
    {"sign in *", "sign_in"},
    {"too many failed sign-ins*", "too_many_sign_ins"},
    {"too many sign-ins*", "too_many_sign_ins"},
    {"a sign-in from this address is under way: wait for it", "too_many_sign_ins"},
    {"at most * new accounts an hour per address", "too_many_accounts"},
    {"no such player*", "no_such_player"},
    {"the password and sign-ins are not for tokens", "token_not_password"},
    {"tokens are made and revoked signed in with the password*", "token_not_password"},
    {"at most * tokens per account: revoke one first", "too_many_tokens"},
    {"no such token of yours", "no_such_token"},
    {"only an account that has played no game may become a bot", "bot_new_only"},
    /* seeks, challenges, the pool */
    {"no such seek", "no_such_seek"},
    {"the seek is gone: taken or withdrawn", "seek_gone"},
    {"the seek was accepted already", "seek_gone"},
    {"taken already", "seek_gone"},
    {"taken on another instance", "seek_gone"},
    {"that is your own seek", "own_seek"},
    {"not your seek", "not_your_seek"},
    {"at most * open seeks per account", "too_many_seeks"},
    {"no such challenge", "no_such_challenge"},
    {"the challenge is gone: taken or withdrawn", "challenge_gone"},
    {"the challenge was accepted already", "challenge_gone"},
    {"a challenge is for someone else", "challenge_not_yours"},
    {"this challenge is for *", "challenge_not_yours"},
    {"only the player challenged may decline", "challenge_not_yours"},
    {"* does not accept challenges from you", "challenges_refused"},
    {"no such player to challenge", "no_such_player"},
    {"* plays * games at once already", "bot_busy"},
    {"a bot *", "bot_challenges_only"},
    {"a rated game needs a clock", "rated_needs_clock"},
    {"a rated game's options are public: no chosen deal", "public_options"},
    {"a seek's options are public: no chosen deal", "public_options"},
    {"a tournament's options are public: no chosen deal", "public_options"},
    {"a rated game is against a computer level*", "rated_computer_level"},
    {"a clock is for rated games against the computer*", "clock_rated_only"},
    {"you are in the pool already: leave it first", "in_pool"},
    {"you are not in the pool", "not_in_pool"},
    {"at most * offers (pool joins among them) a minute*", "too_many_offers"},
    {"the lobby is full: try again shortly", "busy"},
    /* tournaments */
    {"no such tournament", "no_such_tournament"},
    {"the tournament has started already", "tournament_started"},
    {"a round robin that has started takes no new players", "tournament_started"},
    {"the tournament is full *", "tournament_full"},
    {"the tournament is over", "tournament_over"},
    {"not a player of this tournament", "not_in_tournament"},
    {"only its creator starts a tournament", "not_creator"},
    {"a * needs * players to start", "too_few_players"},
    {"at most * tournaments a day per account", "too_many_tournaments"},
    /* closing an account, reports, moderation */
    {"this account is banned*", "banned"},
    {"wrong password", "wrong_password"},
    {"you cannot report yourself", "report_self"},
    {"at most * reports a day, * of one player", "too_many_reports"},
    {"at most * bytes of text", "text_too_long"},
    {"reason is *", "bad_reason"},
    /* chat and blocks */
    {"write something", "empty_line"},
    {"at most * characters a line", "line_too_long"},
    {"at most * lines in * seconds: wait a moment", "too_many_lines"},
    {"at most * lines per game", "too_many_lines"},
    {"your chat has been stopped by the site's operator", "chat_muted"},
    {"one cannot block oneself", "block_self"},
    {"at most * blocked players", "too_many_blocks"},
    /* mail */
    {"not an e-mail address", "bad_address"},
    {"the address is too long*", "bad_address"},
    {"the address is verified already", "verified_already"},
    {"at most * verification mails an hour*", "too_many_mails"},
    {"this server sends no e-mail", "no_mail"},
    {"this database keeps no mail", "no_mail"},
    /* limits and the server's state */
    {"at most * new games an hour per address", "too_many_games"},
    {"at most * unfinished computer-only games*", "too_many_games"},
    {"at most * unfinished rated games against the computer*", "too_many_games"},
    {"at most * hints at once per address", "too_many_hints"},
    {"at most * record uploads at once per address", "too_many_records"},
    {"too many requests*", "rate_limited"},
    {"too many sockets open for this account", "too_many_sockets"},
    {"the server is busy: try again shortly", "busy"},
    {"the server is stopping", "stopping"},
    {"the server is restarting*", "stopping"},
    {"unknown game *", "unknown_game"},
    {"the record cannot be continued: *", "bad_record"},
    {"line *, column *: *", "bad_record"},
};

/* `text` matches `pat` whole, `*` matching any run (at most a few stars). */
static int match(const char *pat, const char *text)
{
    while (*pat && *pat != '*') {
        if (*pat != *text)
            return 0;
        pat++;
        text++;
    }
    if (!*pat)
        return !*text;
    pat++;   /* a star: try every place the rest may start */
    for (;; text++) {
        if (match(pat, text))
            return 1;
        if (!*text)
            return 0;
    }
}

const char *error_code_of_status(int status)
{
    switch (status) {
    case 400: return "bad_request";
    case 401: return "unauthorized";
    case 403: return "forbidden";
    case 404: return "not_found";
    case 405: return "wrong_method";
    case 409: return "conflict";
    case 410: return "gone";
    case 413: return "too_large";
    case 429: return "rate_limited";
    case 503: return "busy";
    default: return status >= 500 ? "server_error" : "refused";
    }
}

const char *error_code(int status, const char *message)
{
    if (message)
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if (match(kinds[i].pattern, message))
                return kinds[i].code;
    return error_code_of_status(status);
}
