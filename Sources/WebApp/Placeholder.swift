enum WebAppPlaceholder {}
