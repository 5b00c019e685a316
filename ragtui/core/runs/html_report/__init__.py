"""One self-contained HTML file of a run or a comparison (``ragtui report RUN --html FILE``,
``ragtui compare BASE NEW --html FILE``): styles, script and SVG charts inline, no request to
any network when opened, every piece of model and user text escaped."""
