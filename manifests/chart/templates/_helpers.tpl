{{/* The chart name, overridable. */}}
{{- define "karpenter-eu.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Object names: the release name when it already says the chart name, else release-chart. */}}
{{- define "karpenter-eu.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "karpenter-eu.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "karpenter-eu.selectorLabels" -}}
app.kubernetes.io/name: {{ include "karpenter-eu.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "karpenter-eu.labels" -}}
{{ include "karpenter-eu.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "karpenter-eu.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "karpenter-eu.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Secret holding the serving certificate of the webhooks and the extender (tls.crt, tls.key, ca.crt). */}}
{{- define "karpenter-eu.webhookSecretName" -}}
{{- if eq .Values.webhook.cert.mode "provided" -}}
{{- required "webhook.cert.provided.secretName is required when webhook.cert.mode is provided" .Values.webhook.cert.provided.secretName -}}
{{- else -}}
{{- printf "%s-cert" (include "karpenter-eu.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* "true" when a cloud is driven: enabled, or any of its settings (ovh.*, scaleway.*, outscale.*) set. */}}
{{- define "karpenter-eu.ovhcloudEnabled" -}}
{{- $s := .Values.ovh -}}
{{- if or .Values.cloud.ovhcloud.enabled $s.serviceName $s.kubeId $s.region $s.endpoint -}}true{{- end -}}
{{- end -}}
{{- define "karpenter-eu.scalewayEnabled" -}}
{{- if or .Values.cloud.scaleway.enabled .Values.scaleway.region .Values.scaleway.endpoint -}}true{{- end -}}
{{- end -}}
{{- define "karpenter-eu.outscaleEnabled" -}}
{{- if or .Values.cloud.outscale.enabled .Values.outscale.region .Values.outscale.endpoint -}}true{{- end -}}
{{- end -}}

{{/*
This cluster's name (CLUSTER_NAME): it marks every instance and node pool the service creates, and garbage
collection touches no other. controller.clusterName, else the MKS cluster id: unique in its project, and the
service's pattern (a DNS label) admits an MKS id as it is. Without either no default is safe: two clusters
sharing one name would each take the other's instances for leaks.
*/}}
{{- define "karpenter-eu.clusterName" -}}
{{- $name := .Values.controller.clusterName -}}
{{- if and (not $name) .Values.ovh.kubeId -}}
{{- $name = .Values.ovh.kubeId -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$" $name) -}}
{{- fail (printf "ovh.kubeId %q cannot name this cluster (controller.clusterName is unset, so it defaults to ovh.kubeId): set ovh.kubeId to the MKS cluster id, a lowercase UUID, or set controller.clusterName" $name) -}}
{{- end -}}
{{- end -}}
{{- if not $name -}}
{{- fail "controller.clusterName is required when ovh.kubeId is unset: this cluster's name, unique among the clusters sharing a cloud project; it marks every instance and node pool the service creates, and garbage collection touches no other" -}}
{{- end -}}
{{- $name -}}
{{- end -}}

{{/* Fails on an unknown cert mode, naming the accepted ones. */}}
{{- define "karpenter-eu.certMode" -}}
{{- $mode := .Values.webhook.cert.mode -}}
{{- if not (or (eq $mode "selfSigned") (eq $mode "certManager") (eq $mode "provided")) -}}
{{- fail (printf "webhook.cert.mode is %q; accepted: selfSigned, certManager, provided" $mode) -}}
{{- end -}}
{{- $mode -}}
{{- end -}}

{{/*
The webhook configurations' annotations: cert-manager's CA injector fills caBundle in certManager mode, from the
chart's CA Certificate (which serving certificate renewals leave alone), or from the serving Certificate when
webhook.cert.certManager.issuerRef names another issuer.
*/}}
{{- define "karpenter-eu.webhookAnnotations" -}}
{{- if eq (include "karpenter-eu.certMode" .) "certManager" }}
{{- $source := ternary "webhook" "ca" (not (empty .Values.webhook.cert.certManager.issuerRef)) }}
annotations:
  cert-manager.io/inject-ca-from: {{ printf "%s/%s-%s" .Release.Namespace (include "karpenter-eu.fullname" .) $source }}
{{- end -}}
{{- end -}}

{{/* The webhook configurations' names: the service patches these two only (selfSigned mode). */}}
{{- define "karpenter-eu.mutatingWebhookName" -}}
{{- printf "%s-defaulting" (include "karpenter-eu.fullname" .) -}}
{{- end -}}
{{- define "karpenter-eu.validatingWebhookName" -}}
{{- printf "%s-validation" (include "karpenter-eu.fullname" .) -}}
{{- end -}}

{{/* One env var read from a credentials Secret. Arguments: list of env name, secret name, key. */}}
{{- define "karpenter-eu.secretEnv" -}}
- name: {{ index . 0 }}
  valueFrom:
    secretKeyRef:
      name: {{ index . 1 | quote }}
      key: {{ index . 2 | quote }}
{{- end -}}
