import { Curve, type LineDrawShapeProps } from 'recharts';

/**
 * `<Line shape={staticLine}>`: the line's path without recharts' draw-in animation. recharts'
 * own shape hands the path a ref and reads its `getTotalLength()` on every render, even with
 * animation off, which costs a few milliseconds per update of a 400-point line.
 */
export function staticLine(props: LineDrawShapeProps) {
  const { pathRef: _pathRef, animationElapsedTime: _t, isAnimating: _a, isEntrance: _e, visibleLength: _v, ...curve } = props;
  return <Curve {...curve} />;
}
