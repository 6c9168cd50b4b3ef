import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Chunks and data usually arrive sooner than this; a spinner flashed for less would only look like flicker. */
const SHOW_AFTER_MS = 200;

/** While a screen's code loads: nothing at first, a small centered spinner once the wait becomes noticeable. */
export function DelayedProgress() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <Box sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
