from taistelukentta.cli.launcher import main

main()
