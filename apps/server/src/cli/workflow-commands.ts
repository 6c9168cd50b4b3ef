import { readFileSync } from 'node:fs';
import type { TeamMember, WorkflowFile, WorkflowSummary, WorkflowValidation, Workflow } from '@gantry/contract';
import type { Command } from 'commander';
import {
  formatWorkflowYaml,
  fromWorkflowFile,
  parseWorkflowYaml,
  type ProjectNames,
} from '../modules/workflows/workflow-file.ts';
import { createApiClient, type ApiClient } from './api-client.ts';
import { CliError } from './cli-context.ts';
import { diffLines } from './line-diff.ts';

interface ConnectionOptions {
  server?: string;
  tokenFile?: string;
  project?: string;
}

interface Target {
  api: ApiClient;
  base: string;
}

function connect(options: ConnectionOptions, env: NodeJS.ProcessEnv): Target {
  const server = options.server ?? env.GANTRY_URL;
  const token = options.tokenFile ? readToken(options.tokenFile) : env.GANTRY_TOKEN;
  const project = options.project ?? env.GANTRY_PROJECT;
  if (!server) throw new CliError('The server URL is required: --server https://gantry.example.com (or GANTRY_URL)');
  if (!/^https?:\/\//i.test(server)) throw new CliError('The server URL must start with http:// or https://');
  // Credentials in the URL would be printed in every "Cannot reach" message.
  if (/^https?:\/\/[^/?#]*@/i.test(server))
    throw new CliError('The server URL must not hold a user name or password; the token is the credential');
  if (!token) throw new CliError('An API token is required: GANTRY_TOKEN or --token-file');
  if (!project || !/^[1-9][0-9]{0,9}$/.test(project))
    throw new CliError('The project id is required: --project 1 (or GANTRY_PROJECT)');
  return { api: createApiClient(server, token), base: `/api/project/${project}` };
}

/** A token on the command line shows in the process list and shell history: it comes from a file or the environment. */
function readToken(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch (error) {
    throw new CliError(`Cannot read the token file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readFile(path: string): WorkflowFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { file, error } = parseWorkflowYaml(text);
  if (!file) throw new CliError(`${path}: ${error ?? 'not a workflow'}`);
  return file;
}

async function readNames({ api, base }: Target): Promise<ProjectNames> {
  const named = (items: { id: number; name: string }[]) => items.map(({ id, name }) => ({ id, name }));
  const [templates, inventories, environments, members] = await Promise.all([
    api.json<{ id: number; name: string }[]>('GET', `${base}/templates`),
    api.json<{ id: number; name: string }[]>('GET', `${base}/inventory`),
    api.json<{ id: number; name: string }[]>('GET', `${base}/environment`),
    api.json<TeamMember[]>('GET', `${base}/users`),
  ]);
  return {
    templates: named(templates),
    inventories: named(inventories),
    environments: named(environments),
    users: members.map((m) => ({ id: m.user_id, name: m.username })),
  };
}

/** The file resolved against the project and checked by the server; throws listing every problem. */
async function resolveChecked(target: Target, path: string) {
  const file = readFile(path);
  const { definition, errors } = fromWorkflowFile(file, await readNames(target));
  if (errors.length === 0) {
    const validation = await target.api.json<WorkflowValidation>(
      'POST',
      `${target.base}/workflows/validate`,
      definition,
    );
    errors.push(...validation.errors);
  }
  if (errors.length > 0)
    throw new CliError([`${path} is not a valid workflow:`, ...errors.map((e) => `  ${e}`)].join('\n'));
  return { file, definition };
}

async function findByName(target: Target, name: string): Promise<WorkflowSummary | undefined> {
  const list = await target.api.json<WorkflowSummary[]>('GET', `${target.base}/workflows`);
  return list.find((w) => w.name === name);
}

export function registerWorkflowCommands(program: Command, env: NodeJS.ProcessEnv, print: (line: string) => void) {
  const workflow = program
    .command('workflow')
    .description('check and apply workflow files (YAML) through the API of a Gantry server');
  const withConnection = (command: Command) =>
    command
      .option('--server <url>', 'URL of the Gantry server (or GANTRY_URL)')
      .option('--token-file <file>', 'file holding the API token of a user who manages the project (or GANTRY_TOKEN)')
      .option('--project <id>', 'id of the project (or GANTRY_PROJECT)');

  withConnection(workflow.command('validate <file>').description('check a workflow file against the project')).action(
    async (path: string, options: ConnectionOptions) => {
      const { file } = await resolveChecked(connect(options, env), path);
      print(`${path}: workflow "${file.name}" is valid.`);
    },
  );

  withConnection(
    workflow.command('diff <file>').description('show how a workflow file differs from the workflow on the server'),
  ).action(async (path: string, options: ConnectionOptions) => {
    const target = connect(options, env);
    const file = readFile(path);
    const current = await findByName(target, file.name);
    const theirs = current ? await target.api.text(`${target.base}/workflows/${current.id}/yaml`) : '';
    // Both sides go through the same schema and layout, so only real differences show.
    const parsedTheirs = current ? parseWorkflowYaml(theirs).file : undefined;
    const lines = diffLines(parsedTheirs ? formatWorkflowYaml(parsedTheirs) : '', formatWorkflowYaml(file));
    if (!lines.some((line) => !line.startsWith(' '))) {
      print(`Workflow "${file.name}" is up to date (revision ${current?.revision ?? 0}).`);
      return;
    }
    print(current ? `--- workflow "${file.name}" revision ${current.revision}` : `--- workflow "${file.name}" (new)`);
    print(`+++ ${path}`);
    for (const line of lines) print(line);
  });

  withConnection(
    workflow.command('apply <file>').description('create the workflow of a file, or save it as a new revision'),
  ).action(async (path: string, options: ConnectionOptions) => {
    const target = connect(options, env);
    const { file, definition } = await resolveChecked(target, path);
    const current = await findByName(target, file.name);
    if (!current) {
      const created = await target.api.json<Workflow>('POST', `${target.base}/workflows`, definition);
      print(`Created workflow "${created.name}" (id ${created.id}, revision ${created.revision}).`);
      return;
    }
    const saved = await target.api.json<Workflow>('PUT', `${target.base}/workflows/${current.id}`, definition);
    print(
      saved.revision === current.revision
        ? `Workflow "${saved.name}" is unchanged (revision ${saved.revision}).`
        : `Saved workflow "${saved.name}" as revision ${saved.revision}.`,
    );
  });
}
