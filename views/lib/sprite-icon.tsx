// A lucide icon drawn from an SVG sprite with <use>: the same <svg> element, attributes and
// classes as lucide-react's icon (lucide lucide-<name>, 24x24, stroke currentColor), but
// the paths live in a hashed static file (cached for a year) rather than in the script.
// esbuild.config.mjs turns the back office's `lucide-react/icons/<name>` imports into
// spriteIcon(<its sprite>, '<name>'); the views keep importing lucide as usual.
import { forwardRef, type SVGProps } from 'react';

export type SpriteIconProps = SVGProps<SVGSVGElement> & {
  size?: number | string;
  color?: string;
  strokeWidth?: number | string;
  absoluteStrokeWidth?: boolean;
};

export function spriteIcon(sprite: string, name: string) {
  const Icon = forwardRef<SVGSVGElement, SpriteIconProps>(function Icon(
    { size = 24, color = 'currentColor', strokeWidth = 2, absoluteStrokeWidth, className, children, ...rest },
    ref,
  ) {
    return (
      <svg
        ref={ref}
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke={color}
        strokeWidth={absoluteStrokeWidth ? (Number(strokeWidth) * 24) / Number(size) : strokeWidth}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className ? `lucide lucide-${name} ${className}` : `lucide lucide-${name}`}
        {...rest}
      >
        <use href={`${sprite}#${name}`} />
        {children}
      </svg>
    );
  });
  Icon.displayName = name;
  return Icon;
}
