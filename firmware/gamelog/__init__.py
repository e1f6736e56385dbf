"""The game log: every game the table referees, enters or imports, kept in SQLite.

The appliance uses `firmware.gamelog.store.GameLog`::

    log = GameLog()                      # $CAROLUS_DB or the platform's data folder
    resumed = log.open_running()         # after a crash: the Game rebuilt by replay
    game_id = log.start_game(setup, seats, meta)
    log.step(game_id, move, events, t)   # returns once committed: then announce
    log.event(game_id, event, t); log.correction(game_id, kind, data, t)
    log.undo(game_id); log.turn_image(game_id, round, turn, jpeg)
    log.finish(game_id)                  # the record, result and scores

Modules: `schema` (tables and migrations), `steps` (moves as JSON), `store` (`GameLog`),
`summary` (show, replay, stats, CSV in words), `cli` (``carolus games``). Importing this
package imports nothing else, so ``carolus`` starts fast.
"""
