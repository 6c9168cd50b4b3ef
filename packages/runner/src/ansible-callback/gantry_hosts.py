# Gantry's ansible callback: writes what each task did on each host, one JSON object a line, to the
# file GANTRY_HOST_EVENTS_FILE names (a 0600 file Gantry makes in the task's private directory).
# It only adds records; the stdout callback and so the text log stay as they are. Gantry reads the
# file when ansible-playbook ends, masks secrets and stores the results with the task.
# At the end it also appends the run's set_stats data, as one JSON object line, to the outputs file
# GANTRY_OUTPUTS names: they become the task's outputs for later workflow steps.
from __future__ import annotations

DOCUMENTATION = '''
    name: gantry_hosts
    type: notification
    short_description: Gantry's record of task results per host
    description:
      - Writes per play, task and host the status, duration and failure message to the file named by GANTRY_HOST_EVENTS_FILE.
'''

import json
import os
import time

from ansible.plugins.callback import CallbackBase

# Records after this many task results are left out (the per-host counts at the end stay complete):
# the file lives in memory (/dev/shm) and a playbook on thousands of hosts has hundreds of thousands.
MAX_RESULTS = 5000
# Gantry keeps 1,000 characters after masking secrets; the rest is a margin so a secret cut here is cut there too.
MAX_MESSAGE = 4000
MAX_NAME = 255


def _text(value, limit):
    if value is None:
        return ''
    if not isinstance(value, str):
        try:
            value = json.dumps(value, default=str)
        except Exception:
            value = str(value)
    return value[:limit]


def _failure_message(result):
    data = result._result if isinstance(result._result, dict) else {}
    for key in ('msg', 'stderr', 'module_stderr', 'reason', 'exception'):
        value = data.get(key)
        if value:
            return _text(value, MAX_MESSAGE)
    return ''


def _is_rescued(task):
    """A failed task inside the block: part of a block that has a rescue section is rescued, as ansible's recap counts it."""
    child = task
    parent = getattr(task, '_parent', None)
    while parent is not None:
        rescue = getattr(parent, 'rescue', None)
        block = getattr(parent, 'block', None)
        if rescue and block and any(getattr(item, '_uuid', None) == getattr(child, '_uuid', object()) for item in block):
            return True
        child = parent
        parent = getattr(parent, '_parent', None)
    return False


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'gantry_hosts'
    # Loaded without being listed in callbacks_enabled, so the user's own list stays as it is.
    CALLBACK_NEEDS_ENABLED = False

    def __init__(self):
        super().__init__()
        path = os.environ.get('GANTRY_HOST_EVENTS_FILE')
        # Appending to the file Gantry made: never creating one, so no other path can be written.
        self._file = open(path, 'a', encoding='utf-8') if path and os.path.isfile(path) else None
        self._play = ''
        self._task_started = {}
        self._results = 0
        # Per host, results by status: complete even when records are left out (a few integers a host).
        self._counts = {}

    def _write(self, record):
        if self._file is None:
            return
        self._file.write(json.dumps(record, ensure_ascii=False) + '\n')
        self._file.flush()

    def v2_playbook_on_play_start(self, play):
        self._play = _text(play.get_name(), MAX_NAME)

    def v2_runner_on_start(self, host, task):
        self._task_started[(host.get_name(), task._uuid)] = time.monotonic()

    def _result(self, result, status, message=''):
        host = result._host.get_name()
        counts = self._counts.setdefault(host, {})
        counts[status] = counts.get(status, 0) + 1
        started = self._task_started.pop((host, result._task._uuid), None)
        if self._results >= MAX_RESULTS:
            if self._results == MAX_RESULTS:
                self._write({'type': 'truncated'})
                self._results += 1
            return
        self._results += 1
        duration = int((time.monotonic() - started) * 1000) if started is not None else 0
        self._write({
            'type': 'result',
            'host': _text(host, MAX_NAME),
            'play': self._play,
            'task': _text(result._task.get_name(), MAX_NAME),
            'status': status,
            'duration_ms': duration,
            'message': message,
        })

    def v2_runner_on_ok(self, result):
        self._result(result, 'changed' if result._result.get('changed') else 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        if ignore_errors:
            status = 'ignored'
        elif _is_rescued(result._task):
            status = 'rescued'
        else:
            status = 'failed'
        self._result(result, status, _failure_message(result))

    def v2_runner_on_unreachable(self, result):
        self._result(result, 'unreachable', _failure_message(result))

    def v2_runner_on_skipped(self, result):
        self._result(result, 'skipped')

    def _write_outputs(self, stats):
        # Only the run-wide data (set_stats with per_host: false, the default): per-host data has no single value.
        custom = getattr(stats, 'custom', None) or {}
        data = custom.get('_run') if isinstance(custom, dict) else None
        path = os.environ.get('GANTRY_OUTPUTS')
        if not data or not isinstance(data, dict) or not path or not os.path.isfile(path):
            return
        # Appending to the file Gantry made, as for the host events; Gantry checks names, sizes and secrets.
        with open(path, 'a', encoding='utf-8') as out:
            out.write(json.dumps(data, ensure_ascii=False, default=str) + '\n')

    def v2_playbook_on_stats(self, stats):
        self._write_outputs(stats)
        # Each result counted under one status (ansible's recap counts a changed task as ok too).
        for host, counts in self._counts.items():
            record = {'type': 'host', 'host': _text(host, MAX_NAME)}
            record.update(counts)
            self._write(record)
