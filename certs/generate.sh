#!/usr/bin/env sh
# Dev CA + serving certificate for the admission webhook service <service>.<namespace>.svc (ECDSA P-256).
# Usage: certs/generate.sh [service] [namespace] [out-dir]   (defaults: karpenter-eu karpenter certs/out)
# Writes ca.crt, ca.key, tls.crt, tls.key. Keys are secrets: out/ is git-ignored, never commit them.
set -eu
service="${1:-karpenter-eu}"
namespace="${2:-karpenter}"
out="${3:-$(dirname "$0")/out}"
days="${DAYS:-365}"
mkdir -p "$out"
umask 077

openssl ecparam -name prime256v1 -genkey -noout -out "$out/ca.key"
openssl req -x509 -new -key "$out/ca.key" -sha256 -days "$days" -subj "/CN=${service}-webhook-ca" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$out/ca.crt"

openssl ecparam -name prime256v1 -genkey -noout -out "$out/tls.key"
openssl req -new -key "$out/tls.key" -subj "/CN=${service}.${namespace}.svc" -out "$out/tls.csr"
cat > "$out/san.ext" <<EXT
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:${service},DNS:${service}.${namespace},DNS:${service}.${namespace}.svc,DNS:${service}.${namespace}.svc.cluster.local
EXT
openssl x509 -req -in "$out/tls.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" -CAcreateserial -sha256 -days "$days" \
  -extfile "$out/san.ext" -out "$out/tls.crt"
rm -f "$out/tls.csr" "$out/san.ext" "$out/ca.srl"
chmod 644 "$out/ca.crt" "$out/tls.crt"

echo "wrote $out/{ca.crt,ca.key,tls.crt,tls.key} for ${service}.${namespace}.svc"
echo "secret:   kubectl -n ${namespace} create secret generic ${service}-cert --type=kubernetes.io/tls --from-file=tls.crt=$out/tls.crt --from-file=tls.key=$out/tls.key --from-file=ca.crt=$out/ca.crt"
echo "caBundle: the base64 of $out/ca.crt on one line, e.g. base64 -w0 $out/ca.crt"
