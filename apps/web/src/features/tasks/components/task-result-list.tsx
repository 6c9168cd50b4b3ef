import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';

interface TaskResultListProps {
  /** The server sent only the first results: `notice` says so above them, `noticeMargin` around it. */
  truncated: boolean;
  notice: string;
  noticeMargin: number;
  /** The results, one list item each. */
  children: ReactNode;
}

/** A task's results as a plain list (its hosts, its plan's changes), under a notice when they are cut short. */
export function TaskResultList({ truncated, notice, noticeMargin, children }: TaskResultListProps) {
  return (
    <>
      {truncated ? (
        <Alert severity="info" sx={{ m: noticeMargin }}>
          {notice}
        </Alert>
      ) : null}
      <Box component="ul" sx={{ m: 0, p: 0 }}>
        {children}
      </Box>
    </>
  );
}
