import type { User, UserSummary } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { EventsService } from '../events/events.service.ts';
import type { LoginStore, UsersRepository } from './users.repository.ts';
import type { UserRow } from './users.table.ts';
import type { CreateUserBody as CreateUserSchema, UpdateUserBody as UpdateUserSchema } from '@gantry/contract';
import { columnsOf, flagsOf } from '../../db/row-fields.ts';

type CreateUserInput = z.output<typeof CreateUserSchema>;
type UpdateUserInput = z.output<typeof UpdateUserSchema>;

export function toUser(row: UserRow): User {
  return {
    ...columnsOf(row, ['id', 'created', 'username', 'name', 'email']),
    ...flagsOf(row, ['admin', 'external', 'alert', 'pro']),
  };
}

const DUPLICATE_USER = 'A user with this username or email already exists';
const USERNAME_IS_ANOTHER_EMAIL = "This username is another user's email";
const EMAIL_IS_ANOTHER_USERNAME = "This email is another user's username";

interface UsersDeps {
  users: UsersRepository;
  events: EventsService;
  clock: Clock;
  /** Ends the user's API tokens and other sessions; `keepSessionToken` is the session that made the change. */
  onPasswordChanged(userId: number, keepSessionToken?: string): Promise<void>;
  /** The user is gone: whatever still runs on their behalf (open websockets) stops. */
  onRemoved(userId: number): void;
  /** The user's administrator flag changed (live sockets follow at once). */
  onAdminChanged(userId: number, admin: boolean): void;
  /** Checks a user's own password, counting wrong ones like failed sign-ins. */
  verifyCurrentPassword(user: UserRow, password: string): Promise<boolean>;
}

export function createUsersService({
  users,
  events,
  clock,
  onPasswordChanged,
  onRemoved,
  onAdminChanged,
  verifyCurrentPassword,
}: UsersDeps) {
  async function getRow(id: number): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw notFound('User');
    return row;
  }

  function assertAdminOrSelf(actor: UserRow, userId: number): void {
    if (actor.admin !== 1 && actor.id !== userId) throw forbidden('Only administrators can manage other users');
  }

  /**
   * Changing your own password or email takes your current password: a stolen session or API token
   * alone must not be enough to take the account over. Administrators changing others' need not.
   */
  async function assertCurrentPassword(
    actor: UserRow | undefined,
    target: UserRow,
    currentPassword: string | undefined,
  ): Promise<void> {
    if (actor?.id !== target.id) return;
    if (!currentPassword) throw badRequest('Enter your current password to change your password or email');
    if (!(await verifyCurrentPassword(target, currentPassword))) throw forbidden('Current password is incorrect');
  }

  /**
   * Sign-in takes a username or an email for either (the oldest user first), so a username may not be
   * another user's email, nor an email another user's username: it would take over their sign-in. Only
   * what changes is checked, so a pair made before this rule still lets its users save their accounts.
   */
  async function assertLoginsOwnedBy(
    logins: LoginStore,
    id: number | undefined,
    changed: { username?: string | undefined; email?: string | undefined },
  ): Promise<void> {
    if (changed.username !== undefined && (await logins.isLoginOfAnother('email', changed.username, id)))
      throw conflict(USERNAME_IS_ANOTHER_EMAIL);
    if (changed.email !== undefined && (await logins.isLoginOfAnother('username', changed.email, id)))
      throw conflict(EMAIL_IS_ANOTHER_USERNAME);
  }

  async function writeUnique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(DUPLICATE_USER);
      throw error;
    }
  }

  return {
    async list(actor: UserRow): Promise<User[] | UserSummary[]> {
      const rows = await users.list();
      if (actor.admin === 1) return rows.map(toUser);
      return rows.map((r) => ({ id: r.id, username: r.username, name: r.name }));
    },

    async get(actor: UserRow, id: number): Promise<User> {
      assertAdminOrSelf(actor, id);
      return toUser(await getRow(id));
    },

    /** Creates a user; `actor` undefined means the operator's command line, which may do anything. */
    async create(actor: UserRow | undefined, body: CreateUserInput): Promise<User> {
      if (actor && actor.admin !== 1) throw forbidden('Only administrators can create users');
      const external = body.external === true;
      const row = {
        created: toTimestamp(clock.now()),
        username: body.username,
        name: body.name,
        email: body.email,
        password_hash: external ? null : await hashPassword(body.password ?? ''),
        admin: body.admin ? 1 : 0,
        external: external ? 1 : 0,
        // An external user made here belongs to the first identity that signs in as it.
        external_source: null,
        external_subject: null,
        alert: body.alert ? 1 : 0,
        pro: 0,
      };
      // The check and the write under one lock: a name another write takes meanwhile is seen.
      const id = await users.withLoginsLocked(async (logins) => {
        await assertLoginsOwnedBy(logins, undefined, { username: row.username, email: row.email });
        return writeUnique(() => logins.insert(row));
      });
      await events.record({
        userId: actor?.id ?? null,
        objectType: 'user',
        objectId: id,
        description: `User ${row.username} created`,
      });
      return toUser({ ...row, id });
    },

    async update(actor: UserRow | undefined, id: number, body: UpdateUserInput, sessionToken?: string): Promise<void> {
      if (actor) assertAdminOrSelf(actor, id);
      if (body.id !== undefined && body.id !== id) throw badRequest('User ID in body and URL must be the same');
      const current = await getRow(id);
      const actorIsAdmin = !actor || actor.admin === 1;
      // A PUT replaces the user, as in Semaphore (Go clients leave false out), except one's own admin flag, which never changes.
      const admin = body.admin ?? (actor?.id === id && current.admin === 1);
      if (admin !== (current.admin === 1)) {
        if (!actorIsAdmin) throw forbidden('Only administrators can change the admin flag');
        if (actor?.id === id) throw badRequest('You cannot change your own admin flag');
      }
      if (current.external === 1) {
        if (body.email !== current.email) throw badRequest('External users cannot change their email');
        if (body.username !== current.username) throw badRequest('External users cannot change their username');
      }
      const changingPassword = Boolean(body.password) && current.external === 0;
      if (changingPassword || body.email !== current.email)
        await assertCurrentPassword(actor, current, body.current_password);
      const changes = {
        name: body.name,
        username: body.username,
        email: body.email,
        alert: body.alert ? 1 : 0,
        admin: admin ? 1 : 0,
        ...(changingPassword && body.password ? { password_hash: await hashPassword(body.password) } : {}),
      };
      await users.withLoginsLocked(async (logins) => {
        await assertLoginsOwnedBy(logins, id, {
          ...(body.username !== current.username ? { username: body.username } : {}),
          ...(body.email !== current.email ? { email: body.email } : {}),
        });
        await writeUnique(() => logins.update(id, changes));
      });
      if (changes.admin !== current.admin) onAdminChanged(id, changes.admin === 1);
      if (changes.password_hash) await onPasswordChanged(id, actor?.id === id ? sessionToken : undefined);
      await events.record({
        userId: actor?.id ?? null,
        objectType: 'user',
        objectId: id,
        description: `User ${changes.username} updated`,
      });
    },

    async setPassword(
      actor: UserRow | undefined,
      id: number,
      body: { password: string; current_password?: string | undefined },
      sessionToken?: string,
    ): Promise<void> {
      if (actor) assertAdminOrSelf(actor, id);
      const current = await getRow(id);
      if (current.external === 1) throw badRequest('External users cannot change their password');
      await assertCurrentPassword(actor, current, body.current_password);
      await users.update(id, { password_hash: await hashPassword(body.password) });
      await onPasswordChanged(id, actor?.id === id ? sessionToken : undefined);
      await events.record({
        userId: actor?.id ?? null,
        objectType: 'user',
        objectId: id,
        description: `Password of user ${current.username} changed`,
      });
    },

    async remove(actor: UserRow | undefined, id: number): Promise<void> {
      if (actor && actor.admin !== 1) throw forbidden('Only administrators can delete users');
      if (actor?.id === id) throw badRequest('You cannot delete your own account');
      const current = await getRow(id);
      const { deleted, soleOwnerOf } = await users.deleteUnlessSoleOwner(id);
      if (soleOwnerOf.length > 0) {
        const names = soleOwnerOf.join(', ');
        throw badRequest(`User ${current.username} is the only owner of: ${names}. Make someone else owner first.`);
      }
      if (!deleted) throw notFound('User');
      onRemoved(id);
      await events.record({
        userId: actor?.id ?? null,
        objectType: 'user',
        objectId: id,
        description: `User ${current.username} deleted`,
      });
    },

    findByLogin(login: string): Promise<UserRow | undefined> {
      return users.findByLogin(login);
    },
    listRows(): Promise<UserRow[]> {
      return users.list();
    },
    count(): Promise<number> {
      return users.count();
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
