import { z } from 'zod';
import { Id } from './common.ts';

/** Decrypted key material as the runner receives it. */
export const KeyMaterial = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('ssh'), login: z.string(), passphrase: z.string(), private_key: z.string() }),
  z.object({ type: z.literal('login_password'), login: z.string(), password: z.string() }),
]);
export type KeyMaterial = z.infer<typeof KeyMaterial>;

/** A parameter that may be left out, or sent as null (Go clients write an unset list as null): both mean unset. */
const unsetOrNull = <T extends z.ZodType>(type: T) =>
  type
    .nullish()
    .transform((v) => v ?? undefined)
    .optional();
const switchParam = unsetOrNull(z.boolean());
const listParam = unsetOrNull(z.array(z.string().max(1024)).max(1000));

export const TaskParams = z
  .object({
    debug: switchParam,
    dry_run: switchParam,
    diff: switchParam,
    limit: listParam,
    tags: listParam,
    skip_tags: listParam,
    plan: switchParam,
    destroy: switchParam,
    auto_approve: switchParam,
    upgrade: switchParam,
    reconfigure: switchParam,
  })
  .catchall(z.unknown());
export type TaskParams = z.infer<typeof TaskParams>;

/** Everything a runner needs to run one task, with secrets decrypted; it never touches the database. */
export const TaskSpec = z.object({
  task_id: Id,
  project_id: Id,
  template_id: Id,
  app: z.string(),
  /** Executable and leading arguments of the app when the admin configured them. */
  app_path: z.string(),
  app_args: z.array(z.string()),
  playbook: z.string(),
  repository: z.object({
    id: Id,
    url: z.string(),
    branch: z.string(),
    key: KeyMaterial,
    /** A task re-run pins the commit of the run it repeats. */
    commit_hash: z.string().nullable(),
  }),
  /** Use a checkout of its own instead of the template's shared one (parallel runs of one template). */
  private_checkout: z.boolean(),
  inventory: z
    .object({
      id: Id,
      type: z.string(),
      content: z.string(),
      user_key: KeyMaterial,
      become_key: KeyMaterial,
    })
    .nullable(),
  /** Extra variables: the variable group's JSON, survey answers and task details. */
  extra_vars: z.record(z.string(), z.unknown()),
  /** Secret variables (var secrets, secret survey answers); reach the process only through 0600 files. */
  secret_vars: z.record(z.string(), z.string()),
  /** Process environment from the variable group (env JSON and env secrets). */
  env: z.record(z.string(), z.string()),
  vaults: z.array(
    z.object({ name: z.string(), type: z.enum(['password', 'script']), password: z.string(), script: z.string() }),
  ),
  template_args: z.array(z.string()),
  task_args: z.array(z.string()),
  /** More playbooks a task passed (ansible): resolved inside the checkout by the runner before they run. */
  extra_playbooks: z.array(z.string()).default([]),
  params: TaskParams,
  workspace: z.string(),
  // Milliseconds held in memory only, never in an integer column: a long timeout may pass 2^31.
  timeout_ms: z.number().int().min(0),
  /** Every secret value that must be masked in output. */
  secrets: z.array(z.string()),
});
export type TaskSpec = z.infer<typeof TaskSpec>;
