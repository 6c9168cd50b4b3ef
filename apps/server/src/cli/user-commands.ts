import { CreateUserBody, UpdateUserBody } from '@gantry/contract';
import type { Command } from 'commander';
import type { UserRow } from '../modules/users/users.table.ts';
import type { Runtime } from '../runtime.ts';
import { CliError, type CliContext } from './cli-context.ts';

interface UserFlags {
  login?: string;
  name?: string;
  email?: string;
  password?: string;
  admin?: boolean;
  external?: boolean;
}

function requireFlags(flags: UserFlags, names: (keyof UserFlags)[], command: string): void {
  const missing = names.filter((n) => !flags[n]);
  if (missing.length === 0) return;
  const lines = missing.map((n) => `Argument --${n} required`);
  lines.push(`Run 'gantry user ${command} --help' for usage.`);
  throw new CliError(lines.join('\n'));
}

function parseOrExplain<T>(
  result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } },
): T {
  if (result.success) return result.data;
  throw new CliError(result.error.issues.map((i) => i.message).join('\n'));
}

async function findUser(runtime: Runtime, flags: UserFlags): Promise<UserRow> {
  const key = flags.login ?? flags.email;
  const user = key ? await runtime.services.users.findByLogin(key) : undefined;
  if (!user) throw new CliError(`User ${key ?? ''} not found`);
  return user;
}

async function changeUser(runtime: Runtime, user: UserRow, flags: UserFlags): Promise<void> {
  const body = parseOrExplain(
    UpdateUserBody.safeParse({
      name: flags.name ?? user.name,
      username: flags.login ?? user.username,
      email: flags.email ?? user.email,
      alert: user.alert === 1,
      // The command line only ever grants the admin flag; it never takes it away.
      admin: flags.admin ? true : user.admin === 1,
      password: flags.password,
    }),
  );
  await runtime.services.users.update(undefined, user.id, body);
}

export function registerUserCommands(program: Command, ctx: CliContext): void {
  const user = program.command('user').alias('users').description('manage users');

  /** A `gantry user <name>` command that acts on the one user its --login or --email names. */
  function addOneUserCommand(
    name: string,
    description: string,
    act: (runtime: Runtime, found: UserRow) => Promise<void>,
  ): void {
    user
      .command(name)
      .description(description)
      .option('--login <login>', 'login')
      .option('--email <email>', 'email')
      .action((flags: UserFlags) =>
        ctx.withRuntime(async (runtime) => {
          if (!flags.login && !flags.email) throw new CliError('Argument --login or --email required');
          await act(runtime, await findUser(runtime, flags));
        }),
      );
  }

  user
    .command('list')
    .description('print the login of every user')
    .action(() =>
      ctx.withRuntime(async (runtime) => {
        for (const row of await runtime.services.users.listRows()) ctx.print(row.username);
      }),
    );

  user
    .command('add')
    .description('add a user')
    .option('--login <login>', 'login (username)')
    .option('--name <name>', 'full name')
    .option('--email <email>', 'email address')
    .option('--password <password>', 'password (not with --external)')
    .option('--admin', 'make the user an administrator')
    .option('--external', 'the user signs in through LDAP or OpenID Connect')
    .action((flags: UserFlags) =>
      ctx.withRuntime(async (runtime) => {
        requireFlags(
          flags,
          flags.external ? ['login', 'name', 'email'] : ['login', 'name', 'email', 'password'],
          'add',
        );
        if (flags.external && flags.password) throw new CliError('--password cannot be used with --external');
        const body = parseOrExplain(
          CreateUserBody.safeParse({
            username: flags.login,
            name: flags.name,
            email: flags.email,
            password: flags.password,
            admin: flags.admin === true,
            external: flags.external === true,
          }),
        );
        const created = await runtime.services.users.create(undefined, body);
        ctx.print(`User ${created.username} <${created.email}> added!`);
      }),
    );

  for (const key of ['login', 'email'] as const) {
    user
      .command(`change-by-${key}`)
      .description(`change a user found by ${key}`)
      .option('--login <login>', key === 'login' ? 'login of the user to change' : 'new login')
      .option('--name <name>', 'new full name')
      .option('--email <email>', key === 'email' ? 'email of the user to change' : 'new email')
      .option('--password <password>', 'new password')
      .option('--admin', 'make the user an administrator')
      .action((flags: UserFlags) =>
        ctx.withRuntime(async (runtime) => {
          requireFlags(flags, [key], `change-by-${key}`);
          const found = await findUser(runtime, key === 'login' ? { login: flags.login } : { email: flags.email });
          await changeUser(runtime, found, flags);
          const changed = await findUser(runtime, { login: flags.login ?? found.username });
          ctx.print(`User ${changed.username} <${changed.email}> changed!`);
        }),
      );
  }

  addOneUserCommand('get', 'print a user found by login or email', async (_runtime, found) => {
    ctx.print(`ID: ${found.id}`);
    ctx.print(`Created: ${found.created}`);
    ctx.print(`Login: ${found.username}`);
    ctx.print(`Name: ${found.name}`);
    ctx.print(`Email: ${found.email}`);
    ctx.print(`Admin: ${found.admin === 1}`);
    ctx.print(`External: ${found.external === 1}`);
  });

  addOneUserCommand(
    'totp-remove',
    'remove the TOTP second factor of a user found by login or email (a lost phone and recovery code)',
    async (runtime, found) => {
      const removed = await runtime.services.totp.removeForUser(found.id);
      ctx.print(
        removed
          ? `Two-factor authentication of ${found.username} removed!`
          : `User ${found.username} has no two-factor authentication.`,
      );
    },
  );

  addOneUserCommand('delete', 'delete a user found by login or email', async (runtime, found) => {
    await runtime.services.users.remove(undefined, found.id);
    ctx.print(`User ${found.username} <${found.email}> deleted!`);
  });
}
