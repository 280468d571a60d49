// Inside the map: fits it to its target once, when the target is known, then
// reports the view's `bbox` parameter after every move or zoom, debounced.
import { useEffect, useRef } from 'react';
import { useMap, useMapEvents } from 'react-leaflet';

import { MAP_MOVE_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { bboxParam, type FitTarget } from '../api/map-geometry.ts';
import { boundsOf, fitTo } from './fit-to.ts';

interface Props {
  /** Undefined until known: nothing is asked for before the map is fitted. */
  target: FitTarget | undefined;
  onView: (bbox: string | null) => void;
}

export function ViewController({ target, onView }: Props) {
  const map = useMap();
  const fitted = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!target || fitted.current) return;
    fitted.current = true;
    fitTo(map, target);
    clearTimeout(timer.current);
    onView(bboxParam(boundsOf(map)));
  }, [map, target, onView]);

  useEffect(() => () => { clearTimeout(timer.current); }, []);

  useMapEvents({
    moveend: () => {
      if (!fitted.current) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        onView(bboxParam(boundsOf(map)));
      }, MAP_MOVE_DEBOUNCE_MS);
    },
  });
  return null;
}
