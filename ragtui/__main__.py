from ragtui.cli import main

raise SystemExit(main())
