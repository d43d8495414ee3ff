#!/bin/sh
# Mosquitto in a container (docker compose, k8s/mosquitto.yaml): the broker's access files live in a directory the
# platform's writer fills (./.mqtt-access on the host for compose; a volume shared with the `broker-access` sidecar in
# k8s). The writer runs in another container and cannot signal the broker, and must not share its process namespace
# (the broker faces devices; the writer holds the credential secret), so this script reloads the broker (SIGHUP)
# whenever the files change.
set -eu
dir=/mosquitto/access
mkdir -p "$dir"
for file in passwords acl; do [ -e "$dir/$file" ] || : > "$dir/$file"; done
mosquitto -c /mosquitto/config/mosquitto.conf &
broker=$!
trap 'kill -TERM "$broker"; wait "$broker"; exit 0' TERM INT
seen=''
while kill -0 "$broker" 2>/dev/null; do
  now="$(cat "$dir/passwords" "$dir/acl" | md5sum)"
  if [ -n "$seen" ] && [ "$now" != "$seen" ]; then kill -HUP "$broker"; fi
  seen="$now"
  sleep 1
done
wait "$broker"
