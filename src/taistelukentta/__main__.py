from taistelukentta.cli.app import main

main()
