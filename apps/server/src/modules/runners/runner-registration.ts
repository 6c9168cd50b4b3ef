import type { RunnerRegisterBody } from '@gantry/contract';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { hashSecret, isSameSecret } from '../../secrets/secret-hash.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { authenticateRunner } from './runner-token.ts';
import type { RunnersRepository } from './runners.repository.ts';
import type { RunnersService } from './runners.service.ts';

export interface RunnerRegistrationDeps {
  config: Config;
  /** Wrong registration tokens, counted per address like failed sign-ins: the token cannot be guessed online. */
  throttle: LoginThrottle;
  runners: RunnersRepository;
  runnersService: RunnersService;
  projectExists(projectId: number): Promise<boolean>;
}

/** Runners registering themselves with the installation's registration token, and leaving. */
export function createRunnerRegistration(deps: RunnerRegistrationDeps) {
  return {
    async register(body: z.output<typeof RunnerRegisterBody>, address: string): Promise<{ token: string }> {
      const attempt = await deps.throttle.reserve({ account: 'runner registration', address });
      // The registration token opens every task's secrets to the runner it creates: no timing hints about it.
      if (
        !deps.config.runner_registration_token ||
        !isSameSecret(body.registration_token, deps.config.runner_registration_token)
      ) {
        throw badRequest('Invalid registration token');
      }
      await attempt.release();
      const projectId = body.project_id ?? null;
      if (projectId !== null && !(await deps.projectExists(projectId))) throw badRequest('Project not found');
      const created = await deps.runnersService.create(undefined, projectId, {
        name: body.name || 'Runner',
        webhook: body.webhook ?? '',
        max_parallel_tasks: body.max_parallel_tasks ?? 0,
        active: true,
      });
      return { token: created.token };
    },

    /** Whether a runner token is known, so that its task output may be larger than an anonymous body. */
    async isKnownToken(token: string): Promise<boolean> {
      return (await deps.runners.findByTokenHash(hashSecret(token))) !== undefined;
    },

    async unregister(token: string | undefined): Promise<void> {
      const runner = await authenticateRunner(deps.runners, token);
      await deps.runnersService.remove(undefined, runner.project_id, runner.id);
    },
  };
}

export type RunnerRegistration = ReturnType<typeof createRunnerRegistration>;
