#!/bin/sh
# Mosquitto for docker compose: the broker's access files live in a directory the platform writes (./.mqtt-access on
# the host, MQTT_BROKER_ACCESS_DIR for `npm start`). A process outside the container cannot signal the broker, so this
# script reloads it (SIGHUP) whenever the files change. Kubernetes runs the platform's writer as a sidecar instead
# (k8s/mosquitto.yaml), which signals the broker itself.
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
