import { Input } from "core";

// Component doc.
@Component({ selector: "app" })
export class AppComponent {
  @Input() name: string;

  /** Greets. */
  greet(): string {
    return "hi " + this.name;
  }

  reset(): void {
    this.name = "";
  }
}

export interface Options {
  verbose: boolean;
}

export function main(): void {
  new AppComponent().greet();
}
