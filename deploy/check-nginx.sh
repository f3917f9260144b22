#!/bin/sh
# Checks deploy/nginx.conf with `nginx -t` outside containers: the replicas' compose names are mapped to
# loopback ports and a throwaway self-signed certificate stands in for the real one. Needs nginx and openssl
# (Debian: apt-get install nginx-light openssl). Exits with nginx's status.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=console.example.com \
  -keyout "$work/tls/privkey.pem" -out "$work/tls/fullchain.pem" 2>/dev/null
sed -e "s#console-\([0-9]\):80 #127.0.0.1:808\1 #" \
    -e "s#/etc/nginx/tls/#$work/tls/#" \
    -e "s#^pid .*#pid $work/nginx.pid;#" \
    "$here/nginx.conf" > "$work/nginx.conf"
exec "$nginx_bin" -t -q -c "$work/nginx.conf" -e "$work/error.log" -g "error_log $work/error.log;"
