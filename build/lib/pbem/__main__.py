from pbem.cli.main import main

main()
