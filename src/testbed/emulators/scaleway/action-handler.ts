/** `POST …/servers/{id}/action`: power actions answer 202 with a task; states then progress with the clock. */
import { invalidArgument, invalidRequest, outOfStock, transientState } from './api-error.js';
import type { EmulatorContext, RequestContext } from './context.js';
import { allowedActions, isTransient } from './lifecycle.js';
import type { ServerAction } from './records.js';
import { parseJsonObject, type Reply } from './http-io.js';
import { serverOf } from './server-handlers.js';
import { taskWire } from './wire.js';

const EMULATED = ['poweron', 'poweroff', 'stop_in_place', 'reboot', 'terminate', 'enable_routed_ip'] as const;
const KNOWN: readonly string[] = [...EMULATED, 'backup'];

/** The action a request body names, for fault matching before the request is handled. */
export function requestedAction(rawBody: string): string | undefined {
  try {
    const action = parseJsonObject(rawBody).action;
    return typeof action === 'string' ? action : undefined;
  } catch {
    return undefined;
  }
}

export function serverAction(emu: EmulatorContext, req: RequestContext): Reply {
  const body = parseJsonObject(req.rawBody);
  const action = body.action ?? 'poweron';
  if (typeof action !== 'string' || !KNOWN.includes(action)) {
    throw invalidArgument('action', `action "${String(action)}" is not one of ${KNOWN.join(', ')}`);
  }
  if (!(EMULATED as readonly string[]).includes(action)) {
    throw invalidArgument('action', `action "${action}" is not emulated; emulated actions: ${EMULATED.join(', ')}`);
  }
  const server = serverOf(emu, req);
  if (isTransient(server.state)) throw transientState('instance_server', server.id, server.state);
  if (!allowedActions(server.state).includes(action as ServerAction)) {
    throw invalidRequest(
      `action ${action} is not allowed while the server is ${server.state}; allowed: ${allowedActions(server.state).join(', ')}`,
    );
  }
  if (action === 'poweron' && emu.availability.get(server.commercialType, server.zone) === 'shortage') {
    throw outOfStock(server.commercialType);
  }
  if (action === 'enable_routed_ip') {
    const task = {
      id: emu.ids.uuid(),
      description: 'server_enable_routed_ip',
      serverId: server.id,
      zone: server.zone,
      startedAt: req.now,
      completesAt: req.now,
    };
    emu.store.tasks.set(task.id, task);
    return { status: 202, json: { task: taskWire(task, req.now) } };
  }
  const task = emu.store.startAction(server, action as 'poweron' | 'poweroff' | 'reboot' | 'terminate' | 'stop_in_place', req.now);
  if (action === 'poweron' && server.dynamicIpRequired) server.publicIpAddress ??= emu.ids.publicIp();
  if (action === 'terminate' || action === 'poweroff') server.publicIpAddress = undefined;
  return { status: 202, json: { task: taskWire(task, req.now) } };
}
