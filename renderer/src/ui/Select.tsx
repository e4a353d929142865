import { ChevronDown } from 'lucide-react';
import type { Ref, SelectHTMLAttributes } from 'react';

interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  selectRef?: Ref<HTMLSelectElement> | undefined;
}

/**
 * A native select (the platform's keyboard and screen-reader behaviour) drawn by the design system. It is
 * as wide as its longest choice and never capped narrower, so the chosen value always shows whole.
 */
export function Select({ selectRef, className, children, ...rest }: SelectProps) {
  return (
    <span className={['select', className].filter(Boolean).join(' ')}>
      <select ref={selectRef} {...rest}>
        {children}
      </select>
      <ChevronDown aria-hidden="true" className="select-chevron" />
    </span>
  );
}
