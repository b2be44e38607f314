#!/bin/sh
# Patroni's post_bootstrap: $1 is a connection URL of the new primary, as the superuser.
set -e
psql "$1" -v ON_ERROR_STOP=1 -c "CREATE ROLE scopa LOGIN PASSWORD 'scopa'" -c "CREATE DATABASE scopa OWNER scopa"
