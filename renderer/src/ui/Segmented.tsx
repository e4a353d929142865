import { useId } from 'react';

export interface SegmentedOption<T extends string | number> {
  value: T;
  label: string;
}

interface SegmentedProps<T extends string | number> {
  /** The group's name, as a screen reader announces it (the legend). */
  legend: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange(value: T): void;
}

/**
 * One choice of a few, side by side (a range of days, say): a labelled group of real radio buttons, so arrow
 * keys move the choice and a screen reader says "3 of 3, selected", drawn as one row of joined buttons.
 */
export function Segmented<T extends string | number>({
  legend,
  options,
  value,
  onChange,
}: SegmentedProps<T>) {
  const name = useId();
  return (
    <fieldset className="segmented">
      <legend className="segmented-legend">{legend}</legend>
      <div className="segmented-options">
        {options.map((option) => (
          <label key={option.value} className="segmented-option">
            <input
              type="radio"
              name={name}
              value={String(option.value)}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
