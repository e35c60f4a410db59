// The home page's logo marquee (WCAG 2.2.2): the server renders it still, with its Pause
// button hidden; here it starts moving and the button appears. aria-pressed="true" is
// paused. A visitor who prefers reduced motion gets it paused (the CSS then lays the logos
// out still and hides the button).
export function startMarquees() {
  for (const box of document.querySelectorAll<HTMLElement>('[data-marquee]')) {
    const button = box.querySelector<HTMLButtonElement>('[data-marquee-toggle]');
    if (!button) continue;
    const set = (paused: boolean) => {
      box.dataset.marquee = paused ? 'paused' : 'running';
      button.setAttribute('aria-pressed', String(paused));
    };
    set(window.matchMedia('(prefers-reduced-motion: reduce)').matches);
    button.hidden = false;
    button.addEventListener('click', () => set(box.dataset.marquee === 'running'));
  }
}
