import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { renderString } from './render/chart.js';
import { TemplateError, TemplateFailure } from './render/errors.js';
import { mergeValues } from './render/values.js';

const data = {
  Values: { name: 'web', replicas: 2, on: true, off: false, empty: '', list: ['a', 'b'], map: { z: 1, a: 2 }, nested: { labels: { app: 'x', tier: 'y' } } },
  Release: { Name: 'rel', Namespace: 'ns' },
};

describe('the Go template renderer', () => {
  const cases: Array<[string, string, string]> = [
    ['plain field', 'name: {{ .Values.name }}', 'name: web'],
    ['number', '{{ .Values.replicas }}', '2'],
    ['missing key prints nothing', '[{{ .Values.absent }}]', '[]'],
    ['left and right trim', 'a  \n  {{- "b" -}}  \n c', 'abc'],
    ['comment', 'a{{/* ignored */}}b{{- /* trimmed */}} c', 'ab c'],
    ['if / else if / else', '{{ if .Values.off }}1{{ else if .Values.on }}2{{ else }}3{{ end }}', '2'],
    ['with changes dot, else when empty', '{{ with .Values.nested.labels }}{{ .app }}{{ end }}{{ with .Values.empty }}x{{ else }}none{{ end }}', 'xnone'],
    ['range over list with index', '{{ range $i, $v := .Values.list }}{{ $i }}={{ $v }};{{ end }}', '0=a;1=b;'],
    ['range over map in key order', '{{ range $k, $v := .Values.map }}{{ $k }}{{ $v }}{{ end }}', 'a2z1'],
    ['range else', '{{ range .Values.absent }}x{{ else }}nothing{{ end }}', 'nothing'],
    ['$ is the root inside range', '{{ range .Values.list }}{{ $.Release.Name }}-{{ . }} {{ end }}', 'rel-a rel-b '],
    ['variable assignment reaches outer scope', '{{ $x := "a" }}{{ if .Values.on }}{{ $x = "b" }}{{ end }}{{ $x }}', 'b'],
    ['pipeline passes the last argument', '{{ .Values.empty | default "fallback" | quote }}', '"fallback"'],
    ['parenthesised pipeline', '{{ printf "%s-%d" (.Values.name | upper) .Values.replicas }}', 'WEB-2'],
    ['and / or return an operand', '{{ or .Values.empty .Values.name }} {{ and .Values.on .Values.off }}', 'web false'],
    ['and short-circuits', '{{ if and .Values.off (fail "not evaluated") }}x{{ end }}ok', 'ok'],
    ['eq with several values', '{{ eq .Values.name "db" "web" }} {{ ne .Values.replicas 2 }}', 'true false'],
    ['toYaml sorts keys, nindent indents', 'labels:{{ toYaml .Values.nested.labels | nindent 2 }}', 'labels:\n  app: x\n  tier: y'],
    ['indent pads every line', '{{ indent 2 "a\\nb" }}', '  a\n  b'],
    ['b64enc', '{{ b64enc "hello" }}', 'aGVsbG8='],
    ['quote escapes', '{{ quote "a\\"b" }}', '"a\\"b"'],
    ['define and include', '{{- define "x" }}<{{ .Release.Name }}>{{ end -}}{{ include "x" . }}', '<rel>'],
    ['template action', '{{- define "y" }}[{{ . }}]{{ end -}}{{ template "y" .Values.name }}', '[web]'],
    ['trunc and trimSuffix', '{{ "abcdef-" | trunc 7 | trimSuffix "-" }}', 'abcdef'],
    ['index and list', '{{ index (list "a" "b") 1 }} {{ index .Values.map "z" }}', 'b 1'],
    ['contains', '{{ contains "eu" "karpenter-eu" }}', 'true'],
  ];
  it.each(cases)('%s', async (_, source, expected) => {
    expect(await renderString(source, data)).toBe(expected);
  });

  it('names the template and line of an unknown function, at parse time', async () => {
    const error = await renderString('a\nb\n{{ lookup "v1" "Secret" "ns" "x" }}', data, 'chart/templates/x.yaml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toBe('template: chart/templates/x.yaml:3: function "lookup" not defined');
  });

  it('reports a field of nil as an error instead of printing nothing', async () => {
    await expect(renderString('\n{{ .Values.absent.deeper }}', data, 't')).rejects.toThrow('template: t:2: nil pointer evaluating interface {}.deeper');
  });

  it('reports required and fail with the author message', async () => {
    await expect(renderString('{{ required "name is required" .Values.empty }}', data, 't')).rejects.toThrow(TemplateFailure);
    await expect(renderString('{{ fail "bad mode" }}', data, 't')).rejects.toThrow('execution error at (t:1): bad mode');
  });

  it('rejects unclosed blocks, stray ends and unknown templates', async () => {
    await expect(renderString('{{ if .Values.on }}x', data, 't')).rejects.toThrow('has no {{ end }}');
    await expect(renderString('{{ include "missing" . }}', data, 't')).rejects.toThrow('no template "missing"');
    await expect(renderString('{{ $undeclared }}', data, 't')).rejects.toThrow('undefined variable "$undeclared"');
  });

  it('genCA and genSignedCert produce PEM that names the DNS names', async () => {
    const out = await renderString('{{ $ca := genCA "test-ca" 1 }}{{ $c := genSignedCert "svc.ns.svc" nil (list "svc") 1 $ca }}{{ $ca.Cert }}{{ $c.Cert }}{{ $c.Key }}', data);
    expect(out.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(out).toContain('BEGIN PRIVATE KEY');
  });

  it('quote always yields a YAML string equal to its input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (s) => {
        const out = await renderString('v: {{ .s | quote }}', { s });
        expect((YAML.parse(out) as { v: string }).v).toBe(s);
      }),
      { numRuns: 100 },
    );
  });

  it('toYaml | nindent embeds any JSON value so it parses back unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue()), async (value) => {
        const out = await renderString('root:\n  inner:{{ toYaml .v | nindent 4 }}', { v: value });
        const parsed = (YAML.parse(out) as { root: { inner: unknown } }).root.inner;
        // Through JSON on both sides: -0 and 0 are one number to Kubernetes.
        expect(JSON.parse(JSON.stringify(parsed))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 100 },
    );
  });

  it('merges values like Helm: maps key by key, lists replaced, null deletes', () => {
    expect(mergeValues({ a: { b: 1, c: 2 }, l: [1, 2], d: 'x' }, { a: { c: 3 }, l: [9], d: null })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
  });
});
