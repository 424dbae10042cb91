/** CreateTags, DeleteTags, ReadTags: tags on any resource the account owns (VMs, subnets, security groups…). */
import type { EmulatorContext } from './context.js';
import { optionalObject, optionalObjectList, optionalString, optionalStringList, requiredStringList, type Body } from './validate.js';
import { paginate } from './wire.js';
import { NotFoundCodes, wireErrors } from './wire-errors.js';

const MAX_TAGS_PER_RESOURCE = 50;

function resourceIds(ctx: EmulatorContext, body: Body): string[] {
  ctx.store.settle(ctx.clock.now());
  const ids = requiredStringList(body, 'ResourceIds');
  for (const id of ids) if (!ctx.store.resourceType(id)) throw wireErrors.notFound(NotFoundCodes.resource, 'resource', id);
  return ids;
}

function tagEntries(body: Body, valueRequired: boolean): { key: string; value?: string }[] {
  const tags = optionalObjectList(body, 'Tags');
  if (!tags || tags.length === 0) throw wireErrors.missing('Tags');
  return tags.map((t, i) => {
    const key = optionalString(t, 'Key');
    if (key === undefined || key === '') throw wireErrors.missing(`Tags[${i}].Key`);
    if (key.length > 255) throw wireErrors.invalidValue(`Tags[${i}].Key`, key, 'a key of 1 to 255 characters');
    const value = optionalString(t, 'Value');
    if (valueRequired && value === undefined) throw wireErrors.missing(`Tags[${i}].Value`);
    if (value !== undefined && value.length > 255)
      throw wireErrors.invalidValue(`Tags[${i}].Value`, value, 'a value of 0 to 255 characters');
    return value === undefined ? { key } : { key, value };
  });
}

export function createTags(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const ids = resourceIds(ctx, body);
  const tags = tagEntries(body, true);
  for (const id of ids) {
    const existing = ctx.store.tagsOf(id);
    const added = tags.filter((t) => !existing.has(t.key)).length;
    if (existing.size + added > MAX_TAGS_PER_RESOURCE) {
      throw wireErrors.invalidValue('Tags', `${existing.size + added} tags on ${id}`, `at most ${MAX_TAGS_PER_RESOURCE} tags per resource`);
    }
  }
  for (const id of ids) for (const t of tags) ctx.store.tagsOf(id).set(t.key, t.value ?? '');
  return {};
}

/** A tag given without a value (or with an empty one) removes the key whatever its value. */
export function deleteTags(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  const ids = resourceIds(ctx, body);
  const tags = tagEntries(body, false);
  for (const id of ids) {
    const existing = ctx.store.tagsOf(id);
    for (const t of tags) if (!t.value || existing.get(t.key) === t.value) existing.delete(t.key);
  }
  return {};
}

export function readTags(ctx: EmulatorContext, body: Body): Record<string, unknown> {
  ctx.store.settle(ctx.clock.now());
  const filters = optionalObject(body, 'Filters') ?? {};
  const keys = optionalStringList(filters, 'Keys');
  const values = optionalStringList(filters, 'Values');
  const ids = optionalStringList(filters, 'ResourceIds');
  const types = optionalStringList(filters, 'ResourceTypes');
  const matching = ctx.store
    .allTags()
    .filter(
      (t) =>
        (!keys || keys.includes(t.key)) &&
        (!values || values.includes(t.value)) &&
        (!ids || ids.includes(t.resourceId)) &&
        (!types || types.includes(t.resourceType)),
    )
    .map((t) => ({ ResourceId: t.resourceId, ResourceType: t.resourceType, Key: t.key, Value: t.value }));
  const { page, nextPageToken } = paginate(body, matching, ctx.settings.pageLimit);
  return { Tags: page, ...(nextPageToken ? { NextPageToken: nextPageToken } : {}) };
}
