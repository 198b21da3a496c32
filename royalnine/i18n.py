"""Every piece of text the game shows, in English and Japanese, with the width it may take.

The Petit Computer console is 32x24 cells of an 8x8 font. Japanese is written
in katakana (hiragana show as katakana glyphs, voiced kana take two cells:
base + dakuten), exactly as a 2013 PTC program would. Each entry records the
widest the text may be where the screens put it, and a test formats every
entry with its widest arguments and measures it in PTC cells, so a translation
that would overflow fails the test suite instead of the screen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from petitcom_shim.charset import to_ptc

LANGS = ("en", "ja")
CONSOLE_WIDTH = 32


@dataclass(frozen=True)
class Text:
    """One message: its English and Japanese forms and the most cells it may take."""

    en: str
    ja: str
    width: int = CONSOLE_WIDTH


# Placeholder -> the widest value it can take (used only to check widths).
WIDEST_ARGS: dict[str, str] = {
    "n": "99",
    "rounds": "99",
    "pts": "999",
    # a player's statistics keep counting for years: four digits must still fit
    "games": "9999",
    "won": "9999",
    "lost": "9999",
    "a": "999",
    "b": "999",
    "who": "PLAYER 2",
    "role": "STRAIGHT FLUSH",
    "line": "MIDDLE COLUMN",
    "x2": " x2",
    "level": "NORMAL",
    "value": "HORIZONTAL",
    "page": "9",
    "pages": "9",
    "card": "R10",
    "msg": "",
    "what": "The statistics file",
    "name": "saves/current.json.corrupt-20261122-101010-99",
    "reason": "Read-only file system",
    "key_a": "ENTER",
    "key_b": "ENTER",
    "key_start": "ENTER",
    "key_select": "ENTER",
    "key_swap": "ENTER",
    "key_x": "ENTER",
    "key_full": "ENTER",
    "cards": "20",
    "top": "10",
    "ev": "99.99",
    "loss": "-99.99",
    "i": "9999",
    "of": "9999",
    "count": "500",
    "p": "100",
    "ps": "100",
    "where": "remote/FFFFFFFF/",
}

TEXTS: dict[str, Text] = {
    # --- title and menus ---
    "title_sub": Text("for petitcom", "for petitcom", 32),
    "title_credit": Text("original (c)2013 Michelan-gelo", "ｹﾞﾝｻｸ (c)2013 Michelan-gelo", 32),
    "title_port": Text("Python port", "Python ﾊﾞﾝ", 16),
    "press_start": Text("Choose below", "ｼﾀﾉ ｶﾞﾒﾝﾃﾞ ｴﾗﾝﾃﾞﾈ", 20),
    "press_start_side": Text("Choose on the right", "ﾐｷﾞﾉ ｶﾞﾒﾝﾃﾞ ｴﾗﾝﾃﾞﾈ", 20),
    "press_start_other": Text("Choose on the other screen", "ﾍﾞﾂﾉ ｶﾞﾒﾝﾃﾞ ｴﾗﾝﾃﾞﾈ", 30),
    "swap_hint": Text("{key_swap}: see the other screen", "{key_swap}ｷｰ: ﾍﾞﾂﾉ ｶﾞﾒﾝｦ ﾐﾙ", 30),
    "swap_short": Text("{key_swap}: swap view", "{key_swap}: ｷﾘｶｴ", 16),
    "menu_continue": Text("CONTINUE MATCH", "ﾂﾂﾞｷｶﾗ", 16),
    "menu_cpu": Text("VS CPU", "CPUﾄ ﾀｲｾﾝ", 16),
    "menu_local": Text("2 PLAYERS", "ﾌﾀﾘﾃﾞ ﾀｲｾﾝ", 16),
    "menu_rules": Text("RULES", "ﾙｰﾙ", 16),
    "menu_options": Text("OPTIONS", "ｵﾌﾟｼｮﾝ", 16),
    "menu_history": Text("HISTORY", "ｷﾛｸ", 16),
    "menu_quit": Text("QUIT", "ｵﾜﾙ", 16),
    "quit_q": Text("Quit Royal Nine?", "ｹﾞｰﾑｦ ｵﾜﾘﾏｽｶ?", 30),
    "new_q": Text("Start a new match?", "ｱﾀﾗｼｲ ｼｱｲｦ ﾊｼﾞﾒﾏｽｶ?", 30),
    "new_q2": Text("The saved match will be lost.", "ｾｰﾌﾞｼﾀ ｼｱｲﾊ ｷｴﾏｽ", 30),
    "menu_remote": Text("REMOTE (QR)", "QRﾃﾞ ﾀｲｾﾝ", 16),
    "remote_title": Text("REMOTE MATCH BY QR", "QRｺｰﾄﾞﾃﾞ ﾀｲｾﾝ", 32),
    "remote_send": Text("SEND CODE {n}", "ｺｰﾄﾞ{n}ｦ ｵｸﾙ", 14),
    "remote_join_wait": Text("Get the host's code 1.", "ｱｲﾃﾉ ｺｰﾄﾞ1ｦ ﾖﾐｺﾓｳ", 32),
    "remote_reply": Text("Then drop,", "ｱｲﾃﾉ ﾍﾝｼﾞｦ", 14),
    "remote_reply2": Text("paste or scan", "ﾄﾞﾛｯﾌﾟ/ﾊﾘﾂｹ/", 14),
    "remote_reply3": Text("their reply.", "ｶﾒﾗﾃﾞ ﾖﾐｺﾓｳ", 14),
    "remote_codes": Text("CODES", "ｺｰﾄﾞ", 11),
    "remote_copy": Text("COPY", "ｺﾋﾟｰ", 8),
    "remote_paste": Text("PASTE", "ﾊﾘﾂｹ", 8),
    "remote_scan": Text("SCAN", "ｶﾒﾗ", 8),
    "remote_stop": Text("STOP", "ﾄﾒﾙ", 8),
    "remote_open_codes": Text("OPEN FOLDER", "ﾌｫﾙﾀﾞｦ ﾋﾗｸ", 13),
    "remote_open_inbox": Text("OPEN INBOX", "ｳｹﾄﾘｦ ﾋﾗｸ", 13),
    "remote_wait_code": Text("WAITING FOR CODE {n}", "ｺｰﾄﾞ{n}ｦ ﾏｯﾃｲﾏｽ", 23),
    "remote_data_folder": Text("In the data folder", "ﾃﾞｰﾀﾉ ﾌｫﾙﾀﾞ", 30),
    "remote_saved_in": Text("your codes:", "ｺﾁﾗﾉ QR:", 14),
    "remote_inbox_in": Text("put theirs in:", "ｱｲﾃﾉ QRｦ ｲﾚﾙ:", 14),
    "remote_or_drop": Text("or drop, paste (Ctrl+V), scan.", "ﾄﾞﾛｯﾌﾟ/ﾊﾘﾂｹ(Ctrl+V)/ｶﾒﾗ ﾃﾞﾓ OK", 32),
    "remote_scanning": Text("Show the code to the camera", "ｺｰﾄﾞｦ ｶﾒﾗﾆ ﾐｾﾃﾈ", 32),
    "remote_reading": Text("READING...", "ﾖﾐｺﾐﾁｭｳ...", 15),
    "remote_no_camera": Text("No camera: {msg}", "ｶﾒﾗｶﾞ ﾂｶｴﾏｾﾝ: {msg}", 32),
    "remote_opened": Text("Opening the folder...", "ﾌｫﾙﾀﾞｦ ﾋﾗｲﾃｲﾏｽ...", 32),
    "remote_no_opener": Text(
        "No file manager here: the folder is {where} in the data folder above.",
        "ﾌｧｲﾙﾏﾈｰｼﾞｬｶﾞ ｱﾘﾏｾﾝ. ﾌｫﾙﾀﾞﾊ ｳｴﾉ ﾃﾞｰﾀﾌｫﾙﾀﾞﾉ {where} ﾃﾞｽ",
        90,
    ),
    "remote_how_send": Text("COPY, then paste it in a chat.", "ｺﾋﾟｰｼﾃ ﾁｬｯﾄﾆ ﾊﾘﾂｹﾃ ｵｸﾘﾏｽ", 30),
    "remote_copied": Text("Copied as text.", "ﾃｷｽﾄｦ ｺﾋﾟｰｼﾀ", 28),
    "remote_clipboard": Text("clipboard", "ｸﾘｯﾌﾟﾎﾞｰﾄﾞ", 12),
    "remote_clip_empty": Text("The clipboard holds no text.", "ｸﾘｯﾌﾟﾎﾞｰﾄﾞﾆ ﾓｼﾞｶﾞ ﾅｲ", 32),
    "remote_role_host": Text("HOST", "ﾎｽﾄ", 5),
    "remote_role_guest": Text("GUEST", "ｻﾝｶｼｬ", 5),
    "remote_col_match": Text("MATCH", "ｼｱｲ", 8),
    "remote_col_rival": Text("RIVAL", "ｱｲﾃ", 5),
    "remote_col_round": Text("RND", "ｶｲｾﾝ", 5),
    "remote_col_move": Text("MOVE", "ﾃﾊﾞﾝ", 4),
    "remote_move_you": Text("YOU", "ｱﾅﾀ", 4),
    "remote_move_rival": Text("THEM", "ｱｲﾃ", 4),
    "remote_col_last": Text("LAST", "ｺｳｼﾝ", 4),
    "remote_none": Text("No remote match in progress.", "ﾘﾓｰﾄﾉ ｼｱｲﾊ ｱﾘﾏｾﾝ", 32),
    "remote_list_hint": Text("Tap a match to go on with it.", "ﾂﾂﾞｹﾙ ｼｱｲｦ ﾀｯﾁ", 32),
    "remote_more": Text("MORE {page}/{pages}", "ﾂｷﾞ {page}/{pages}", 10),
    "remote_host_short": Text("HOST", "ﾀﾃﾙ", 9),
    "remote_join_short": Text("JOIN", "ｻﾝｶ", 9),
    "remote_damaged": Text("CODE DAMAGED!", "ｺｰﾄﾞｶﾞ ｺﾜﾚﾃﾙ!", 15),
    "remote_claim": Text("CLAIM WIN", "ｼｮｳﾘｦ ｾｲｷｭｳ", 14),
    "remote_show_again": Text("SHOW AGAIN", "ｺｰﾄﾞｦ ﾓｳｲﾁﾄﾞ", 14),
    "claim_q_title": Text("YOUR RIVAL CLAIMS THE MATCH", "ｱｲﾃｶﾞ ｼｮｳﾘｦ ｼｭﾁｮｳｼﾃｲﾏｽ", 30),
    "claim_q_move": Text("You have not answered code {n}", "ｺｰﾄﾞ{n}ﾆ ﾏﾀﾞ ﾍﾝｼﾞｦ ｼﾃｲﾏｾﾝ", 30),
    "claim_q_clock": Text("since it arrived here.", "(ｺﾉ ｷｶｲﾉ ﾄｹｲﾃﾞ)", 30),
    "claim_q_accept": Text("ACCEPT: a loss by forfeit.", "ｼｮｳﾁ: ﾌｾﾝﾊｲﾆ ﾅﾘﾏｽ", 30),
    "claim_q_later": Text("NOT NOW: you may still answer.", "ｱﾄﾃﾞ: ﾏﾀﾞ ﾍﾝｼﾞﾃﾞｷﾏｽ", 30),
    "claim_q_sure": Text("Count the claim here?", "ｺｺﾃﾞ ﾊｲﾎﾞｸｦ ﾐﾄﾒﾏｽｶ?", 30),
    "claim_accept": Text("ACCEPT", "ｼｮｳﾁ", 13),
    "claim_later": Text("NOT NOW", "ｱﾄﾃﾞ", 13),
    "forfeit_won": Text("WON BY FORFEIT", "ﾌｾﾝｼｮｳ", 32),
    "forfeit_lost": Text("LOST BY FORFEIT", "ﾌｾﾝﾊｲ", 32),
    "forfeit_why": Text("Your rival stopped answering.", "ｱｲﾃｶﾞ ﾍﾝｼﾞｦ ﾔﾒﾏｼﾀ", 32),
    "forfeit_send": Text("COPY, then send to your rival.", "ｺﾋﾟｰｼﾃ ｱｲﾃﾆ ｵｸｯﾃｸﾀﾞｻｲ", 30),
    "forfeit_why_lost": Text("Your rival claimed the match.", "ｱｲﾃｶﾞ ｼｮｳﾘｦ ｼｭﾁｮｳｼﾏｼﾀ", 32),
    "forfeit_file": Text("The match so far is kept in", "ｺｺﾏﾃﾞﾉ ｷﾛｸﾊ ｺﾁﾗﾆ", 32),
    "remote_last": Text("Send last code {n} (Ctrl+C):", "ｻｲｺﾞﾉ ｺｰﾄﾞ{n}ｦ ｵｸｯﾃﾈ(Ctrl+C):", 30),
    "menu_back": Text("BACK", "ﾓﾄﾞﾙ", 16),
    "difficulty": Text("CPU LEVEL", "CPUﾉ ﾂﾖｻ", 16),
    "level_easy": Text("EASY", "ﾖﾜｲ", 8),
    "level_normal": Text("NORMAL", "ﾌﾂｳ", 8),
    "level_hard": Text("HARD", "ﾂﾖｲ", 8),
    "level_master": Text("MASTER", "ﾒｲｼﾞﾝ", 8),
    "continue_q": Text("Continue the saved match?", "ｾｰﾌﾞｼﾀ ｼｱｲﾉ ﾂﾂﾞｷｦ ｽﾙ?", 32),
    "yes_new": Text("YES, NEW MATCH", "ﾊｲ, ｱﾀﾗｼｸ", 16),
    "no_keep": Text("NO, KEEP IT", "ｲｲｴ", 16),
    "corrupt_save": Text("Damaged save was set aside.", "ｺﾜﾚﾀ ｾｰﾌﾞｦ ﾍﾞﾂﾆ ﾎｿﾞﾝｼﾏｼﾀ", 30),
    "file_problem": Text("A data file had a problem:", "ﾌｧｲﾙﾆ ﾓﾝﾀﾞｲｶﾞ ｱﾘﾏｼﾀ:", 30),
    # --- notices about data files (shown folded over up to 5 lines of 30 cells) ---
    "notice_set_aside": Text(
        "{what} was damaged and is not used. The file is kept as {name}",
        "{what}ｶﾞ ｺﾜﾚﾃｲﾀﾉﾃﾞ ﾂｶｲﾏｾﾝ｡ ﾓﾄﾉ ﾌｧｲﾙ: {name}",
        124,
    ),
    "notice_not_moved": Text(
        "{what} is damaged and could not be moved aside: {name}",
        "{what}ｶﾞ ｺﾜﾚﾃｲﾏｽｶﾞ ｲﾄﾞｳﾃﾞｷﾏｾﾝ: {name}",
        124,
    ),
    "notice_cannot_save": Text(
        "{what}: could not save it ({reason})",
        "{what}ｦ ｾｰﾌﾞﾃﾞｷﾏｾﾝ: {reason}",
        124,
    ),
    "notice_no_home": Text(
        "The data folder is a file, so nothing is saved: {name}",
        "ﾃﾞｰﾀﾉ ﾌｫﾙﾀﾞｶﾞ ﾌｧｲﾙﾅﾉﾃﾞ ｾｰﾌﾞﾃﾞｷﾏｾﾝ: {name}",
        124,
    ),
    "notice_ignored": Text(  # the file's bad values, or all of it when it cannot be read
        "{what} has an error; the defaults are used in its place: {name}",
        "{what}ﾉ ｴﾗｰﾉ ﾌﾞﾌﾞﾝﾊ ｼｮｷｾｯﾃｲｦ ﾂｶｲﾏｽ: {name}",
        124,
    ),
    "file_controls": Text("The controls file", "ｿｳｻ ｾｯﾃｲ", 20),
    "file_settings": Text("The settings file", "ｾｯﾃｲ ﾌｧｲﾙ", 20),
    "file_save": Text("The saved match", "ｾｰﾌﾞｼﾀ ｼｱｲ", 20),
    "file_stats": Text("The statistics file", "ｾｲｾｷ ﾌｧｲﾙ", 20),
    "file_kiosk": Text("The kiosk settings", "ｷｵｽｸ ｾｯﾃｲ", 20),
    "file_remote": Text("The remote match", "QRﾀｲｾﾝﾉ ﾃﾞｰﾀ", 20),
    "file_history": Text("A kept match", "ｼｱｲﾉ ｷﾛｸ", 20),
    # --- options ---
    "opt_title": Text("OPTIONS", "ｵﾌﾟｼｮﾝ", 16),
    "opt_tens": Text("TENS", "10ﾉ ｶｰﾄﾞ", 12),
    "opt_rounds": Text("ROUNDS", "ﾗｳﾝﾄﾞｽｳ", 12),
    "opt_lang": Text("LANGUAGE", "ｹﾞﾝｺﾞ", 12),
    "opt_music": Text("MUSIC", "ｵﾝｶﾞｸ", 10),
    "opt_effects": Text("SOUND FX", "ｺｳｶｵﾝ", 10),
    "opt_layout": Text("SCREENS", "ｶﾞﾒﾝ", 12),
    "opt_scale": Text("SCALE", "ｶｸﾀﾞｲ", 12),
    "opt_level": Text("CPU LEVEL", "CPUﾉ ﾂﾖｻ", 12),
    "opt_on": Text("ON", "ON", 10),
    "opt_off": Text("OFF", "OFF", 10),
    "opt_auto": Text("AUTO", "ｼﾞﾄﾞｳ", 10),
    "opt_fit": Text("FIT", "ﾌｨｯﾄ", 10),
    "opt_no_audio": Text("No audio device: no sound", "ｵｰﾃﾞｨｵ ｿｳﾁ ﾅｼ: ｵﾄﾊ ﾃﾞﾅｲ", 30),
    "opt_restart": Text("Screens/scale: next start", "ｶﾞﾒﾝ ﾉ ｾｯﾃｲﾊ ﾂｷﾞﾉ ｷﾄﾞｳｶﾗ", 32),
    "lay_vertical": Text("VERTICAL", "ﾀﾃ", 10),
    "lay_side": Text("SIDE", "ﾖｺ", 10),
    "lay_separate": Text("2 WINDOWS", "2ﾂﾉ ｳｨﾝﾄﾞｳ", 10),
    "lay_single": Text("ONE", "1ﾂ", 10),
    # --- match ---
    "round_of": Text("ROUND {n}/{rounds}", "ﾗｳﾝﾄﾞ {n}/{rounds}", 14),
    "half_1": Text("FIRST HALF", "ｾﾞﾝﾊﾝ", 14),
    "half_2": Text("SECOND HALF", "ｺｳﾊﾝ", 14),
    "you": Text("YOU", "ｱﾅﾀ", 8),
    "cpu": Text("CPU", "CPU", 8),
    "cpu_n": Text("CPU {n}", "CPU{n}", 8),
    "player1": Text("PLAYER 1", "1P", 8),
    "player2": Text("PLAYER 2", "2P", 8),
    "rival": Text("RIVAL", "ｱｲﾃ", 8),
    "score_line": Text("{who} {pts}", "{who} {pts}", 14),
    "btn_confirm": Text("OK", "OK", 6),
    "btn_undo": Text("UNDO", "ﾓﾄﾞｽ", 6),
    "btn_menu": Text("MENU", "ﾒﾆｭｰ", 6),
    "btn_hint": Text("HINT", "ﾋﾝﾄ", 6),
    "hint_done": Text("Hint ~{pts} pts", "ﾋﾝﾄ: ~{pts}ﾃﾝ", 14),
    "hint_move": Text("Move, then OK", "ｳｺﾞｶｼﾃﾓ OK", 14),
    "help_place": Text("Drag a card to", "ｶｰﾄﾞｦ ﾏｽﾍ", 14),
    "help_place2": Text("a cell, or tap", "ﾄﾞﾗｯｸﾞ ｽﾙｶ", 14),
    "help_place3": Text("card then cell", "ｶｰﾄﾞﾄ ﾏｽｦ ﾀｯﾁ", 14),
    "help_selected": Text("Now tap a cell", "ｵｸ ﾏｽｦ ﾀｯﾁ", 14),
    "help_confirm": Text("All placed!", "ｾﾞﾝﾌﾞ ｵｲﾀ!", 14),
    "help_confirm2": Text("Tap OK to fix", "OKｦ ﾀｯﾁﾃﾞ ｹｯﾃｲ", 14),
    "help_confirm3": Text("them for good.", "(ﾓｳ ｳｺﾞｶｾﾅｲ)", 14),
    "keys_place": Text("Arrows: move", "ﾔｼﾞﾙｼ: ｲﾄﾞｳ", 14),
    "keys_place2": Text("{key_a}=pick/put", "{key_a}: ﾄﾙ/ｵｸ", 14),
    "keys_place3": Text("{key_b}: undo", "{key_b}: ﾓﾄﾞｽ", 14),
    "keys_selected": Text("{key_a}=put here", "{key_a}: ｺｺﾆ ｵｸ", 14),
    "keys_confirm2": Text("{key_start} fixes", "{key_start}ﾃﾞ ｹｯﾃｲ", 14),
    "waiting": Text("Waiting...", "ﾏｯﾃｲﾏｽ...", 14),
    "cpu_thinking": Text("CPU thinks...", "CPUｶﾞ ｶﾝｶﾞｴﾁｭｳ", 14),
    "bad_centre": Text("Centre cell is", "ﾏﾝﾅｶﾊ ｷｮｳﾂｳ", 14),
    "bad_centre2": Text("for the common", "ｶｰﾄﾞﾉ ﾊﾞｼｮ!", 14),
    "bad_centre3": Text("card only.", "ｺｺﾆﾊ ｵｹﾅｲ", 14),
    "bad_locked": Text("Card is fixed.", "ｺﾉｶｰﾄﾞﾊ ｺﾃｲ", 14),
    "bad_full": Text("Cell is taken.", "ﾏｽｶﾞ ｳﾏｯﾃﾙ", 14),
    "bad_off": Text("Not your grid.", "ｱﾅﾀﾉ ﾏｽﾃﾞﾅｲ", 14),
    "bad_hand": Text("Place all 4!", "4ﾏｲ ｵｲﾃﾈ!", 14),
    "bad_undo": Text("Nothing placed", "ﾓﾄﾞｾﾅｲ", 14),
    "save_failed": Text("Cannot save!", "ｾｰﾌﾞ ﾃﾞｷﾅｲ!", 14),
    "handover": Text("Pass to {who}", "{who}ﾆ ｺｳﾀｲ", 20),
    "handover2": Text("Others look away!", "ｱｲﾃﾊ ﾐﾅｲﾃﾞﾈ!", 20),
    "handover3": Text("Tap/{key_a} when ready", "ﾀｯﾁ/{key_a}ﾃﾞ ｽﾀｰﾄ", 20),
    "common": Text("COMMON", "ｷｮｳﾂｳ", 8),
    # --- reveal ---
    "reveal": Text("Common card!", "ｷｮｳﾂｳ ｶｰﾄﾞ ｵｰﾌﾟﾝ!", 32),
    "line_top_row": Text("TOP ROW", "ｳｴﾉ ﾖｺ", 13),
    "line_middle_row": Text("MIDDLE ROW", "ﾏﾝﾅｶﾉ ﾖｺ", 13),
    "line_bottom_row": Text("BOTTOM ROW", "ｼﾀﾉ ﾖｺ", 13),
    "line_left_column": Text("LEFT COLUMN", "ﾋﾀﾞﾘﾉ ﾀﾃ", 13),
    "line_middle_column": Text("MIDDLE COLUMN", "ﾏﾝﾅｶﾉ ﾀﾃ", 13),
    "line_right_column": Text("RIGHT COLUMN", "ﾐｷﾞﾉ ﾀﾃ", 13),
    "role_STRAIGHT": Text("STRAIGHT", "ｽﾄﾚｰﾄ", 14),
    "role_FLUSH": Text("FLUSH", "ﾌﾗｯｼｭ", 14),
    "role_STRAIGHT_FLUSH": Text("STRAIGHT FLUSH", "ｽﾄﾚｰﾄﾌﾗｯｼｭ", 14),
    "line_score": Text("{role}{x2} = {pts}", "{role}{x2} = {pts}", 32),
    "royal_nine": Text("ROYAL NINE! +16", "ﾛｲﾔﾙﾅｲﾝ! +16", 32),
    "royal_nine2": Text("All nine one colour", "9ﾏｲ ｽﾍﾞﾃ ｵﾅｼﾞ ｲﾛ", 32),
    "bust": Text("BUST! Round = 0", "ﾊﾞｰｽﾄ! ｺﾉﾗｳﾝﾄﾞ 0ﾃﾝ", 32),
    "bust2": Text("8 cards one colour,", "8ﾏｲｶﾞ ｵﾅｼﾞ ｲﾛﾃﾞ", 32),
    "bust3": Text("the common card is not.", "ｷｮｳﾂｳ ｶｰﾄﾞﾀﾞｹ ﾁｶﾞｳ ｲﾛ", 32),
    "royal_short": Text("ROYAL NINE +16", "ﾛｲﾔﾙﾅｲﾝ +16", 14),
    "bust_short": Text("BUST = 0", "ﾊﾞｰｽﾄ = 0ﾃﾝ", 14),
    "no_roles": Text("No scoring lines.", "ﾔｸ ﾅｼ", 30),
    "grid_total": Text("{who} total: {pts}", "{who}: {pts}ﾃﾝ", 32),
    "tap_next": Text("TAP/{key_a}: next", "ﾀｯﾁ/{key_a}: ﾂｷﾞﾍ", 16),
    # --- results ---
    "round_result": Text("ROUND {n} OVER", "ﾗｳﾝﾄﾞ {n} ｹｯｶ", 14),
    "match_result": Text("MATCH RESULT", "ｼｱｲ ｹｯｶ", 32),
    "wins": Text("{who} WINS!", "{who}ﾉ ｶﾁ!", 20),
    "you_win": Text("YOU WIN!", "ｱﾅﾀﾉ ｶﾁ!", 20),
    "draw": Text("DRAW", "ﾋｷﾜｹ", 20),
    "total": Text("TOTAL", "ｺﾞｳｹｲ", 6),
    "rnd_short": Text("RND", "R", 3),
    "next_round": Text("NEXT ROUND", "ﾂｷﾞﾉ ﾗｳﾝﾄﾞ", 12),
    "see_result": Text("RESULT", "ｹｯｶ", 12),
    "stats_line": Text(
        "GAMES {games}  WON {won}  LOST {lost}", "ﾀｲｾﾝ {games}  ｶﾁ {won}  ﾏｹ {lost}", 32
    ),
    "stats_line_cpu": Text(
        "{level} GAMES {games} W{won} L{lost}", "{level} ﾀｲｾﾝ{games} ｶﾁ{won} ﾏｹ{lost}", 32
    ),
    "rematch": Text("REMATCH", "ﾓｳｲﾁﾄﾞ", 12),
    "to_title": Text("TITLE", "ﾀｲﾄﾙ", 12),
    # --- history and review ---
    "history_title": Text("MATCH HISTORY", "ｼｱｲﾉ ｷﾛｸ", 32),
    "history_count": Text("Matches kept: {count}", "ｷﾛｸ {count}ｼｱｲ", 30),
    "history_none": Text("No finished match yet.", "ｵﾜｯﾀ ｼｱｲﾊ ﾏﾀﾞ ﾅｲ", 30),
    "history_hint": Text("Tap a match to review it.", "ﾌﾘｶｴﾙ ｼｱｲｦ ﾀｯﾁ", 30),
    "history_page": Text("{p}/{ps}", "{p}/{ps}", 7),
    "history_prev": Text("PREV", "ﾏｴ", 8),
    "history_next": Text("NEXT", "ﾂｷﾞ", 8),
    "history_rounds": Text("{n} RND", "{n}ｶｲ", 6),
    "history_tens": Text("TENS", "10ｱﾘ", 5),
    "history_col_date": Text("DATE", "ﾋﾂﾞｹ", 5),
    "history_col_mode": Text("MODE", "ﾓｰﾄﾞ", 4),
    "history_col_rival": Text("RIVAL", "ｱｲﾃ", 6),
    "history_col_score": Text("SCORE", "ﾃﾝｽｳ", 7),
    "history_col_result": Text("RES.", "ｹｯｶ", 4),
    "history_mode_cpu": Text("CPU", "CPU", 4),
    "history_mode_local": Text("2P", "ﾌﾀﾘ", 4),
    "history_mode_remote": Text("QR", "QR", 4),
    "history_won": Text("WON", "ｶﾁ", 4),
    "history_lost": Text("LOST", "ﾏｹ", 4),
    "history_drawn": Text("DRAW", "ﾋｷﾜｹ", 4),
    "history_p1": Text("P1", "1P", 4),
    "history_p2": Text("P2", "2P", 4),
    "review_prev": Text("<", "<", 4),
    "review_next": Text(">", ">", 4),
    "review_step": Text("STEP {i}/{of}", "{i}/{of}", 14),
    "review_keys": Text("< >: step", "ｻﾕｳ: ｽﾃｯﾌﾟ", 14),
    "review_keys2": Text("Up/down: round", "ｳｴ/ｼﾀ: ﾗｳﾝﾄﾞ", 14),
    "review_deal": Text("Cards dealt", "ｶｰﾄﾞｦ ｸﾊﾞﾙ", 14),
    "review_common": Text("Common card!", "ｷｮｳﾂｳ ｶｰﾄﾞ!", 14),
    "review_placed": Text("MOVE: {who}", "{who}ﾉ ﾃ", 14),
    "review_analysing": Text("Analysing...", "ﾌﾞﾝｾｷﾁｭｳ...", 14),
    "review_failed": Text("No analysis", "ﾌﾞﾝｾｷ ﾃﾞｷﾅｲ", 14),
    "review_played": Text("PLAYED {ev}", "ｳｯﾀ ﾃ {ev}", 14),
    "review_best": Text("BEST   {ev}", "ｻｲｾﾞﾝ {ev}", 14),
    "review_loss": Text("LOSS {loss}", "ｿﾝ {loss}", 14),
    "review_no_loss": Text("BEST MOVE!", "ｻｲｾﾞﾝﾉ ﾃ!", 14),
    "review_summary": Text("MATCH REVIEW", "ｼｱｲﾉ ﾌﾘｶｴﾘ", 32),
    "review_points": Text("POINTS", "ﾄｸﾃﾝ", 10),
    "review_expected": Text("EXPECTED", "ｷﾀｲﾁ", 10),
    "review_lost": Text("LOST", "ｿﾝ", 10),
    "review_luck": Text("LUCK", "ｳﾝ", 10),
    "review_luck_note": Text("LUCK = POINTS - EXPECTED", "ｳﾝ = ﾄｸﾃﾝ - ｷﾀｲﾁ", 30),
    "review_biggest": Text("Biggest mistake:", "ｲﾁﾊﾞﾝﾉ ﾐｽ:", 30),
    "review_mistake": Text("{who}: RND {n}, {loss}", "{who}: ﾗｳﾝﾄﾞ{n} {loss}", 30),
    "review_all_best": Text("{who}: none, all best!", "{who}: ﾐｽ ﾅｼ!", 30),
    # --- pause ---
    "paused": Text("PAUSED", "ﾎﾟｰｽﾞ", 16),
    "resume": Text("RESUME", "ﾂﾂﾞｹﾙ", 16),
    "quit_title": Text("QUIT TO TITLE", "ﾀｲﾄﾙﾍ", 16),
    "saved_note": Text("The match is saved.", "ｼｱｲﾊ ｾｰﾌﾞｻﾚﾃｲﾏｽ", 32),
    # --- rules pages ---
    "rules_title": Text("RULES {page}/{pages}", "ﾙｰﾙ {page}/{pages}", 16),
    "r1_1": Text(
        "{cards} cards: red 1-{top}, blue 1-{top}.", "ｶｰﾄﾞﾊ ｱｶ1-{top} ﾄ ｱｵ1-{top}ﾉ {cards}ﾏｲ", 32
    ),
    "r1_2": Text("Red = hearts, blue = spades.", "ｱｶ=ﾊｰﾄ ｱｵ=ｽﾍﾟｰﾄﾞ", 32),
    "r1_3": Text("Each player fills a 3x3 grid.", "3x3ﾉ ﾏｽｦ ｳﾒﾃｲｸ ｹﾞｰﾑ", 32),
    "r1_4": Text("The centre is ONE common card,", "ﾏﾝﾅｶﾊ 2ﾆﾝ ｷｮｳﾂｳﾉ ｶｰﾄﾞ", 32),
    "r1_5": Text("face down until the end.", "ｻｲｺﾞﾏﾃﾞ ｳﾗﾑｷ", 32),
    "r1_tens_on": Text("TENS on: 8-9-10 is a straight.", "10ﾉ ｶｰﾄﾞ ｱﾘ: 8-9-10ﾓ ｽﾄﾚｰﾄ", 31),
    "r1_tens_off": Text("TENS in OPTIONS adds R10, B10.", "ｵﾌﾟｼｮﾝﾃﾞ 10ﾉ ｶｰﾄﾞｦ ﾂｲｶﾃﾞｷﾙ", 31),
    "r2_1": Text("You get 4 cards: place them.", "4ﾏｲ ｸﾊﾞﾗﾚﾙﾉﾃﾞ ﾏｽﾆ ｵｸ", 32),
    "r2_2": Text("Press OK: they are fixed.", "OKﾃﾞ ｺﾃｲ (ﾓｳ ｳｺﾞｶｾﾅｲ)", 32),
    "r2_3": Text("4 more cards fill the rest.", "ｱﾄ4ﾏｲﾃﾞ ﾉｺﾘｦ ｳﾒﾙ", 32),
    "r2_4": Text("Then the common card turns", "ｻｲｺﾞﾆ ｷｮｳﾂｳ ｶｰﾄﾞｦ ｵｰﾌﾟﾝ", 32),
    "r2_5": Text("and both grids score.", "ﾘｮｳﾎｳﾉ ﾏｽｦ ｹｲｻﾝ", 32),
    "r3_1": Text("Each row and column can score:", "ﾀﾃﾄ ﾖｺﾉ ﾚﾂﾃﾞ ﾔｸｦ ﾂｸﾙ:", 32),
    "r3_2": Text("STRAIGHT 1: 3 ranks in a row", "ｽﾄﾚｰﾄ 1: ﾚﾝｿﾞｸｼﾀ ｶｽﾞ", 32),
    "r3_3": Text("  (9-1-2 does not count)", "  (9-1-2ﾊ ﾀﾞﾒ)", 32),
    "r3_4": Text("FLUSH 1: one colour", "ﾌﾗｯｼｭ 1: ｵﾅｼﾞ ｲﾛ", 32),
    "r3_5": Text("STRAIGHT FLUSH 2: both", "ｽﾄﾚｰﾄﾌﾗｯｼｭ 2: ﾘｮｳﾎｳ", 32),
    "r3_6": Text("Lines through the centre x2!", "ﾏﾝﾅｶﾉ ﾀﾃﾄ ﾖｺﾊ 2ﾊﾞｲ!", 32),
    "r4_1": Text("ROYAL NINE +16: all 9 cards", "ﾛｲﾔﾙﾅｲﾝ +16: 9ﾏｲ ｽﾍﾞﾃ", 32),
    "r4_2": Text("  one colour.", "  ｵﾅｼﾞ ｲﾛ", 32),
    "r4_3": Text("BUST 0: your 8 cards one", "ﾊﾞｰｽﾄ 0ﾃﾝ: ｼﾞﾌﾞﾝﾉ 8ﾏｲｶﾞ", 32),
    "r4_4": Text("  colour, the centre not.", "  ｵﾅｼﾞ ｲﾛﾃﾞ ﾏﾝﾅｶﾀﾞｹ ﾁｶﾞｳ", 32),
    "r4_5": Text("Rounds: {rounds}. Most points win.", "{rounds}ﾗｳﾝﾄﾞﾉ ｺﾞｳｹｲﾃﾝﾃﾞ ｼｮｳﾌﾞ", 32),
    "r5_1": Text("CONTROLS", "ｿｳｻ", 32),
    "r5_2": Text("Drag a card to a cell, or tap", "ｶｰﾄﾞｦ ﾏｽﾍ ﾄﾞﾗｯｸﾞ", 32),
    "r5_3": Text("the card then the cell.", "ﾏﾀﾊ ｶｰﾄﾞﾄ ﾏｽｦ ﾀｯﾁ", 32),
    "r5_4": Text("Keys: arrows move the cursor,", "ｷｰ: ﾔｼﾞﾙｼﾃﾞ ｶｰｿﾙｦ ｳｺﾞｶｽ", 32),
    "r5_5": Text("{key_a} takes/puts, {key_b} undoes,", "{key_a}:ﾄﾙ/ｵｸ {key_b}:ﾓﾄﾞｽ", 32),
    "r5_6": Text("{key_start} = OK, {key_select} = menu.", "{key_start}:OK {key_select}:ﾒﾆｭｰ", 32),
    "r5_7": Text("{key_x}: hint, {key_full}: full screen", "{key_x}:ﾋﾝﾄ {key_full}:ﾌﾙｽｸﾘｰﾝ", 31),
}


used: list[tuple[str, str, str]] | None = None
"""While not None (the text-fit test), every (key, lang, text) :func:`tr` gives is added."""


def tr(key: str, lang: str = "en", **args: object) -> str:
    """The text for ``key`` in ``lang`` (falls back to English), formatted with ``args``."""
    out = untracked(key, lang, **args)
    if used is not None:
        used.append((key, lang, out))
    return out


def seat_names(meta: Mapping[str, object], lang: str = "en") -> tuple[str, str]:
    """The names the game shows for seats 0 and 1 of a recorded match, from its ``meta``
    (``mode``, and ``seat``: the seat of the player at this machine): YOU and CPU, YOU and
    RIVAL, PLAYER 1 and PLAYER 2, or HOST and GUEST for a remote transcript, which does
    not say whose side was whose. The review screen and ``royalnine review`` both use it."""
    mode, seat = meta.get("mode"), meta.get("seat", 0)
    if mode == "cpu":
        you, cpu = tr("you", lang), tr("cpu", lang)
        return (you, cpu) if seat != 1 else (cpu, you)
    if mode == "remote" and "seat" not in meta:
        return (tr("remote_role_host", lang), tr("remote_role_guest", lang))
    if mode == "remote":
        you, rival = tr("you", lang), tr("rival", lang)
        return (you, rival) if seat != 1 else (rival, you)
    return (tr("player1", lang), tr("player2", lang))


def untracked(key: str, lang: str = "en", **args: object) -> str:
    """:func:`tr` for a text meant for the log, not the screen: the text-fit walk
    (:data:`used`) counts only the texts the screens are meant to show."""
    text = TEXTS[key]
    template = text.ja if lang == "ja" else text.en
    return template.format(**args) if args else template


def cells(text: str) -> int:
    """How many console cells ``text`` takes on the Petit Computer (voiced kana take two)."""
    return len(to_ptc(text, errors="replace"))


_PLACEHOLDER = re.compile(r"{(\w+)}")


def widest(key: str, lang: str) -> str:
    """``key`` formatted with the widest value of every placeholder (for width checks)."""
    text = TEXTS[key]
    template = text.ja if lang == "ja" else text.en
    names = _PLACEHOLDER.findall(template)
    return template.format(**{n: WIDEST_ARGS[n] for n in names})
