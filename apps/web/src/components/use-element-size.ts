import { useLayoutEffect, useState, type RefObject } from 'react';

interface ElementSize {
  width: number;
  height: number;
}

/**
 * The inner size (clientWidth, clientHeight) of the element behind `ref`, kept current as it
 * resizes; measured before the browser paints, so what is drawn at that size never flashes at 0.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>): ElementSize {
  const [size, setSize] = useState<ElementSize>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () =>
      setSize((current) =>
        current.width === element.clientWidth && current.height === element.clientHeight
          ? current
          : { width: element.clientWidth, height: element.clientHeight },
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
