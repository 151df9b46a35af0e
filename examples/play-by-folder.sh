#!/usr/bin/env bash
# A whole move cycle of a pbem game by shared folder, with the real commands.
#
#   bash examples/play-by-folder.sh [GAME]        (default: nightfall)
#
# Everything happens under a new temporary folder: keys/ (private keys stay
# with their owners in real life), game/ (the shared game directory) and the
# move files the players send.
set -euo pipefail
GAME="${1:-nightfall}"
WORK="$(mktemp -d)"
cd "$WORK"

# Each person makes a key pair once; players send their NAME.pub to the referee.
pbem keygen referee --out keys
pbem keygen alice --out keys
pbem keygen bob --out keys

# The referee creates the game: seats in order, the referee's private key.
pbem new game --game "$GAME" --player alice=keys/alice.pub --player bob=keys/bob.pub \
    --referee-key keys/referee.key
pbem status game

# Whoever is awaited reads their view and answers with option 1.
for _ in 1 2; do
    player="$(pbem status game --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["awaiting"][0])')"
    pbem view game --as "$player" --key "keys/$player.key"
    pbem move game --as "$player" --key "keys/$player.key" --choose 1 --out "$player-move.json"
    # The referee applies it and writes the next turn and everybody's view.
    pbem submit game "$player-move.json" --referee-key keys/referee.key
done

# A player can open their view with the stock age tool as well:
#   age -d -i <(python3 -c 'import json; print(json.load(open("keys/alice.key"))["x25519"])') game/views/alice/latest.age
pbem log game
pbem verify game
echo "game directory: $WORK/game"
